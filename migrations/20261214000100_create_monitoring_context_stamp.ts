import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The freshness stamp of what real time keeps in memory per tenant (docs/monitoring.md, "Real
 * time"): the rule versions in force, the named lists, the peer medians. One small row per
 * tenant, its number raised by triggers in the same transaction as every change of those tables
 * (a rule or version written, activated, retired or deleted; a list's head moved to a new
 * version; peer medians stored), so no writer can forget it. A web process compares the number
 * with the one its cache was built under, in the first statement of the evaluation's
 * transaction: a rule activated in one process is in force at the next evaluation of every other.
 *
 * The triggers run as the writer and under its tenant: the row they touch is the tenant's own,
 * which the writer's change has just passed the same policy for.
 */
const TRACKED = ['monitoring_regole', 'monitoring_regole_versioni', 'liste_riferimento', 'monitoring_statistiche_pari'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table monitoring_contesto_versione (
      cod_azienda text primary key references aziende(cod_azienda),
      versione bigint not null default 0
    )`);
  await enableTenantRls(knex, 'monitoring_contesto_versione');
  await knex.raw(`
    create or replace function monitoring_contesto_modificato() returns trigger language plpgsql as $$
    declare
      tenant text := case when tg_op = 'DELETE' then old.cod_azienda else new.cod_azienda end;
    begin
      insert into monitoring_contesto_versione as v (cod_azienda, versione) values (tenant, 1)
        on conflict (cod_azienda) do update set versione = v.versione + 1;
      return null;
    end
    $$`);
  for (const table of TRACKED) {
    await knex.raw(`create trigger ?? after insert or update or delete on ?? for each row execute function monitoring_contesto_modificato()`,
      [`${table}_contesto`, table]);
  }
  // Volatile and plpgsql: evaluated when its turn in a select list comes (after the tenant's set_config), never folded early.
  await knex.raw(`
    create or replace function monitoring_contesto_stamp(tenant text) returns bigint language plpgsql volatile as $$
    begin
      return coalesce((select versione from monitoring_contesto_versione where cod_azienda = tenant), 0);
    end
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists monitoring_contesto_stamp(text)');
  for (const table of TRACKED) await knex.raw('drop trigger if exists ?? on ??', [`${table}_contesto`, table]);
  await knex.raw('drop function if exists monitoring_contesto_modificato()');
  await disableTenantRls(knex, 'monitoring_contesto_versione');
  await knex.raw('drop table monitoring_contesto_versione');
}
