import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The monitoring engine's runs and what they leave (docs/monitoring.md, "Evaluation paths",
 * "Rules, versions and release gates"):
 *
 * - monitoring_esecuzioni: one row per run, its progress and summary: the daily batch of a day
 *   (`giornaliero`, one per tenant and day), a replay of the active rules over a period
 *   (`replay`), a backtest of a draft against the version in force (`backtest`). `posizione` is the
 *   last customer a committed chunk finished: a retried chunk starts after it.
 * - monitoring_backtest_alert: the alerts a backtest would have raised, per side (the draft, the
 *   version in force), customer and day: the page's counts per day and the customers only one
 *   side alerts are read from it.
 * - monitoring_statistiche_pari: the peer medians the daily batch computed for a day (peer_ratio).
 * - monitoring_rilasci: a draft's release (the release workflow's projection): who asked, the
 *   draft's content hash when asked, the gates as they stood when decided, who approved or refused.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('monitoring_esecuzioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('tipo').notNullable();
    t.text('stato').notNullable().defaultTo('running');
    t.date('giorno');
    t.date('dal').notNullable();
    t.date('al').notNullable();
    t.uuid('versione_id').references('monitoring_regole_versioni.id');
    t.text('versione_hash');
    t.uuid('attiva_id').references('monitoring_regole_versioni.id');
    t.integer('totale').notNullable().defaultTo(0);
    t.integer('elaborati').notNullable().defaultTo(0);
    t.integer('eventi').notNullable().defaultTo(0);
    t.integer('decisioni').notNullable().defaultTo(0);
    t.integer('alert_nuovi').notNullable().defaultTo(0);
    t.integer('alert_aggiornati').notNullable().defaultTo(0);
    t.text('posizione');
    t.jsonb('riepilogo').notNullable().defaultTo('{}');
    t.text('errore');
    t.text('workflow_id').notNullable();
    t.text('avviata_da').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });
  await knex.raw(`alter table monitoring_esecuzioni
    add constraint monitoring_esecuzioni_tipo check (tipo in ('giornaliero', 'replay', 'backtest')),
    add constraint monitoring_esecuzioni_stato check (stato in ('running', 'completed', 'failed', 'cancelled')),
    add constraint monitoring_esecuzioni_periodo check (dal <= al),
    add constraint monitoring_esecuzioni_giorno check ((tipo = 'giornaliero') = (giorno is not null)),
    add constraint monitoring_esecuzioni_backtest check ((tipo = 'backtest') = (versione_id is not null and versione_hash is not null)),
    add constraint monitoring_esecuzioni_conteggi check (totale >= 0 and elaborati >= 0 and eventi >= 0 and decisioni >= 0 and alert_nuovi >= 0 and alert_aggiornati >= 0),
    add constraint monitoring_esecuzioni_fine check ((stato = 'running') = (finished_at is null))`);
  await knex.raw("create unique index monitoring_esecuzioni_giornaliera on monitoring_esecuzioni (cod_azienda, giorno) where tipo = 'giornaliero'");
  await knex.raw('create unique index monitoring_esecuzioni_workflow on monitoring_esecuzioni (workflow_id)');
  // The runs list (newest first) and its filters; a draft's backtests.
  await knex.raw('create index monitoring_esecuzioni_list on monitoring_esecuzioni (cod_azienda, created_at, id)');
  await knex.raw('create index monitoring_esecuzioni_tipo_idx on monitoring_esecuzioni (cod_azienda, tipo, created_at, id)');
  await knex.raw('create index monitoring_esecuzioni_stato_idx on monitoring_esecuzioni (cod_azienda, stato, created_at, id)');
  await knex.raw("create index monitoring_esecuzioni_versione on monitoring_esecuzioni (cod_azienda, versione_id, created_at) where tipo = 'backtest'");
  await enableTenantRls(knex, 'monitoring_esecuzioni');

  await knex.schema.createTable('monitoring_backtest_alert', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('esecuzione_id').notNullable().references('monitoring_esecuzioni.id');
    t.text('lato').notNullable();
    // The engine's alert id (<customer>:<rule>:<first hit day>): stable, so a retried chunk rewrites the same row.
    t.text('chiave').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.date('giorno').notNullable();
    t.date('ultimo_giorno').notNullable();
    t.integer('punteggio').notNullable();
    t.integer('riscontri').notNullable();
    t.primary(['esecuzione_id', 'lato', 'chiave']);
  });
  await knex.raw(`alter table monitoring_backtest_alert
    add constraint monitoring_backtest_alert_lato check (lato in ('bozza', 'attiva')),
    add constraint monitoring_backtest_alert_riscontri check (riscontri >= 1 and giorno <= ultimo_giorno)`);
  await knex.raw('create index monitoring_backtest_alert_giorno on monitoring_backtest_alert (esecuzione_id, giorno, lato)');
  await knex.raw('create index monitoring_backtest_alert_cliente on monitoring_backtest_alert (esecuzione_id, cod_anagrafe, lato)');
  await enableTenantRls(knex, 'monitoring_backtest_alert');

  await knex.schema.createTable('monitoring_statistiche_pari', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.date('giorno').notNullable();
    t.jsonb('mediane').notNullable();
    t.integer('clienti').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['cod_azienda', 'giorno']);
  });
  await enableTenantRls(knex, 'monitoring_statistiche_pari');

  await knex.schema.createTable('monitoring_rilasci', (t) => {
    // The draft's version id: one release per draft (a refused one may be asked again).
    t.uuid('id').primary().references('monitoring_regole_versioni.id');
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('regola_id').notNullable().references('monitoring_regole.id');
    t.text('stato').notNullable();
    t.text('versione_hash').notNullable();
    t.uuid('richiesto_da').notNullable();
    t.text('richiesto_da_username').notNullable();
    t.timestamp('richiesto_at', { useTz: true }).notNullable();
    t.text('motivazione');
    t.uuid('deciso_da');
    t.timestamp('deciso_at', { useTz: true });
    t.text('motivazione_decisione');
    t.jsonb('cancelli');
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table monitoring_rilasci
    add constraint monitoring_rilasci_stato check (stato in ('in_attesa', 'attivata', 'respinta')),
    add constraint monitoring_rilasci_decisa check ((stato = 'in_attesa') = (deciso_da is null and deciso_at is null)),
    add constraint monitoring_rilasci_quattro_occhi check (stato <> 'attivata' or deciso_da <> richiesto_da)`);
  await knex.raw('create index monitoring_rilasci_regola on monitoring_rilasci (cod_azienda, regola_id)');
  await enableTenantRls(knex, 'monitoring_rilasci');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['monitoring_rilasci', 'monitoring_statistiche_pari', 'monitoring_backtest_alert', 'monitoring_esecuzioni']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
