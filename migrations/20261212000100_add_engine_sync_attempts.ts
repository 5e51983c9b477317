import type { Knex } from 'knex';

/**
 * A dead letter of the engine sync keeps its replays that failed again (docs/monitoring.md, "Sync
 * runs, dead letters, replay"): how many (`tentativi`), the last one's error and time and its run.
 * Such a replay is no dead letter of its own: its run ends `ritentata` (what it could not copy is
 * moved onto the dead letter it replayed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('engine_sync', (t) => {
    t.integer('tentativi').notNullable().defaultTo(0);
    t.text('ultimo_errore');
    t.timestamp('ultimo_tentativo_at', { useTz: true });
    t.text('ultimo_tentativo_da');
  });
  await knex.raw(`alter table engine_sync
    drop constraint engine_sync_stato,
    add constraint engine_sync_stato check (stato in ('in_corso', 'completata', 'scarti', 'fallita', 'rieseguita', 'ritentata')),
    add constraint engine_sync_tentativi check (tentativi >= 0 and (tentativi = 0) = (ultimo_tentativo_at is null)),
    add constraint engine_sync_ritentata check (stato <> 'ritentata' or origine = 'replay')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("update engine_sync set stato = case when scarti > 0 then 'scarti' else 'fallita' end where stato = 'ritentata'");
  await knex.raw(`alter table engine_sync
    drop constraint engine_sync_ritentata,
    drop constraint engine_sync_tentativi,
    drop constraint engine_sync_stato,
    add constraint engine_sync_stato check (stato in ('in_corso', 'completata', 'scarti', 'fallita', 'rieseguita'))`);
  await knex.schema.alterTable('engine_sync', (t) => {
    t.dropColumn('ultimo_tentativo_da');
    t.dropColumn('ultimo_tentativo_at');
    t.dropColumn('ultimo_errore');
    t.dropColumn('tentativi');
  });
}
