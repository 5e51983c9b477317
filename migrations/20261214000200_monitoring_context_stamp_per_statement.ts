import type { Knex } from 'knex';

/**
 * The freshness stamp's triggers (20261214000100) fired for each row: a statement writing many
 * rows (a list's version with its entries, the peer medians of a day, a seed) raised the one
 * stamp row once per row, and each raise in the same transaction walks the row's growing chain of
 * versions, so the cost grew with the square of the rows. Here they fire once per statement, and
 * raise each tenant the statement touched once (the transition tables say which).
 */
const TRACKED = ['monitoring_regole', 'monitoring_regole_versioni', 'liste_riferimento', 'monitoring_statistiche_pari'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function monitoring_contesto_modificato_righe() returns trigger language plpgsql as $$
    begin
      -- Transition tables are named per trigger; each branch reads only the ones its event defines.
      if tg_op = 'INSERT' then
        insert into monitoring_contesto_versione as v (cod_azienda, versione)
          select distinct cod_azienda, 1 from righe_nuove
          on conflict (cod_azienda) do update set versione = v.versione + 1;
      elsif tg_op = 'DELETE' then
        insert into monitoring_contesto_versione as v (cod_azienda, versione)
          select distinct cod_azienda, 1 from righe_vecchie
          on conflict (cod_azienda) do update set versione = v.versione + 1;
      else
        insert into monitoring_contesto_versione as v (cod_azienda, versione)
          select cod_azienda, 1 from (select cod_azienda from righe_nuove union select cod_azienda from righe_vecchie) t
          on conflict (cod_azienda) do update set versione = v.versione + 1;
      end if;
      return null;
    end
    $$`);
  for (const table of TRACKED) {
    await knex.raw('drop trigger if exists ?? on ??', [`${table}_contesto`, table]);
    // One event per trigger: PostgreSQL allows transition tables only on single-event triggers.
    await knex.raw(`create trigger ?? after insert on ?? referencing new table as righe_nuove
      for each statement execute function monitoring_contesto_modificato_righe()`, [`${table}_contesto_ins`, table]);
    await knex.raw(`create trigger ?? after update on ?? referencing old table as righe_vecchie new table as righe_nuove
      for each statement execute function monitoring_contesto_modificato_righe()`, [`${table}_contesto_upd`, table]);
    await knex.raw(`create trigger ?? after delete on ?? referencing old table as righe_vecchie
      for each statement execute function monitoring_contesto_modificato_righe()`, [`${table}_contesto_del`, table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TRACKED) {
    for (const s of ['ins', 'upd', 'del']) await knex.raw('drop trigger if exists ?? on ??', [`${table}_contesto_${s}`, table]);
    await knex.raw(`create trigger ?? after insert or update or delete on ?? for each row execute function monitoring_contesto_modificato()`,
      [`${table}_contesto`, table]);
  }
  await knex.raw('drop function if exists monitoring_contesto_modificato_righe()');
}
