import type { Knex } from 'knex';
import { GUARD_SCHEMA } from '../src/db/tenant-guard';

/**
 * A superadmin works across tenants, so making one is a way out of a tenant: the application
 * role (tenant requests) may not create, change or delete a user who has or gets the
 * superadmin role, even in its own tenant. Superadmins are managed through the platform role
 * (the application already refuses it to tenant admins; this holds against injected SQL too).
 * SECURITY DEFINER to read the role name from the guard; session_user is the role that logged in.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function utenti_superadmin_guard() returns trigger
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      if session_user = (select app_role from ${GUARD_SCHEMA}.config where id = 1)
         and ((tg_op <> 'INSERT' and 'superadmin' = any(old.ruoli)) or (tg_op <> 'DELETE' and 'superadmin' = any(new.ruoli))) then
        raise exception 'only the platform role may write a superadmin' using errcode = '42501';
      end if;
      return coalesce(new, old);
    end $$`);
  await knex.raw('revoke all on function utenti_superadmin_guard() from public');
  await knex.raw(`create trigger utenti_superadmin_guard before insert or update or delete on utenti
    for each row execute function utenti_superadmin_guard()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists utenti_superadmin_guard on utenti');
  await knex.raw('drop function if exists utenti_superadmin_guard()');
}
