import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The decision engine's synchronised copy and its sync records (docs/monitoring.md, "The engine
 * process and its sync"):
 *
 * - engine_copia: what the engine needs from the platform, one row per record and kind (`cliente`:
 *   a customer's profile with its relationships and their holders; `regola`: a rule version in
 *   force; `lista`: a named list's version in force with its entries), as the engine reads it
 *   (`contenuto`), its content hash, and the platform's change stamp it was copied from (`fonte`):
 *   the engine's store compares the stamp with the platform's before trusting the row.
 * - engine_sync: one row per sync run of a tenant and kind (or the replay of a dead letter):
 *   state, counts, start and end, error. `scarti` > 0 makes it a dead letter until replayed.
 * - engine_sync_scarti: the records a sync could not copy and why (the dead letters' content).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('engine_copia', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('tipo').notNullable();
    t.text('chiave').notNullable();
    t.jsonb('contenuto').notNullable();
    t.text('hash').notNullable();
    t.text('fonte').notNullable();
    t.text('cod_sync').notNullable();
    t.timestamp('aggiornato_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['cod_azienda', 'tipo', 'chiave']);
  });
  await knex.raw("alter table engine_copia add constraint engine_copia_tipo check (tipo in ('cliente', 'regola', 'lista'))");
  await enableTenantRls(knex, 'engine_copia');

  await knex.schema.createTable('engine_sync', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_sync').notNullable();
    t.text('tipo').notNullable();
    t.text('stato').notNullable().defaultTo('in_corso');
    t.text('origine').notNullable();
    // The dead letter this run replayed (origine 'replay').
    t.text('replay_di');
    t.integer('esaminati').notNullable().defaultTo(0);
    t.integer('inseriti').notNullable().defaultTo(0);
    t.integer('aggiornati').notNullable().defaultTo(0);
    t.integer('rimossi').notNullable().defaultTo(0);
    t.integer('invariati').notNullable().defaultTo(0);
    t.integer('scarti').notNullable().defaultTo(0);
    t.text('errore');
    t.text('motore');
    t.text('avviata_da').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ended_at', { useTz: true });
    // Set when a later run (its replay) copied every record this one could not.
    t.text('rieseguita_da');
    t.timestamp('rieseguita_at', { useTz: true });
  });
  await knex.raw(`alter table engine_sync
    add constraint engine_sync_tipo check (tipo in ('cliente', 'regola', 'lista')),
    add constraint engine_sync_stato check (stato in ('in_corso', 'completata', 'scarti', 'fallita', 'rieseguita')),
    add constraint engine_sync_origine check (origine in ('pianificata', 'manuale', 'replay')),
    add constraint engine_sync_replay check ((origine = 'replay') = (replay_di is not null)),
    add constraint engine_sync_fine check ((stato = 'in_corso') = (ended_at is null)),
    add constraint engine_sync_rieseguita check ((stato = 'rieseguita') = (rieseguita_da is not null)),
    add constraint engine_sync_conteggi check (esaminati >= 0 and inseriti >= 0 and aggiornati >= 0 and rimossi >= 0 and invariati >= 0 and scarti >= 0)`);
  await knex.raw('create unique index engine_sync_cod on engine_sync (cod_azienda, cod_sync)');
  await knex.raw('create index engine_sync_tipo_idx on engine_sync (cod_azienda, tipo, started_at desc)');
  await knex.raw("create index engine_sync_dead on engine_sync (cod_azienda, started_at desc) where stato in ('scarti', 'fallita')");
  await enableTenantRls(knex, 'engine_sync');

  await knex.schema.createTable('engine_sync_scarti', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('sync_id').notNullable().references('engine_sync.id');
    t.text('tipo').notNullable();
    t.text('chiave').notNullable();
    t.text('motivo').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['sync_id', 'chiave']);
  });
  await knex.raw('create index engine_sync_scarti_chiave on engine_sync_scarti (cod_azienda, tipo, chiave)');
  await enableTenantRls(knex, 'engine_sync_scarti');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['engine_sync_scarti', 'engine_sync', 'engine_copia']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
