import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Runs over the whole portfolio: a recalculation with the active rule set, or a dry run
 * (simulazione) of a draft that stores, per customer, the class it would give beside the
 * class in force and the contributions that differ, and changes nothing else. One workflow
 * per run (workflows/risk/risk-portfolio.workflow.ts) with its progress here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rischio_esecuzioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('tipo').notNullable();
    t.uuid('versione_id').notNullable().references('rischio_versioni.id');
    t.text('stato').notNullable();
    t.integer('totale');
    t.integer('elaborati').notNullable().defaultTo(0);
    t.integer('cambi').notNullable().defaultTo(0);
    // Counts by class before and after, and by (from, to) pair.
    t.jsonb('riepilogo').notNullable().defaultTo('{}');
    t.text('errore');
    t.text('workflow_id').notNullable();
    t.text('started_by').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.unique(['workflow_id']);
  });
  await knex.raw(`alter table rischio_esecuzioni
    add constraint rischio_esecuzioni_tipo check (tipo in ('ricalcolo', 'simulazione')),
    add constraint rischio_esecuzioni_stato check (stato in ('running', 'completed', 'failed', 'cancelled')),
    add constraint rischio_esecuzioni_conteggi check (elaborati >= 0 and cambi >= 0 and cambi <= elaborati),
    add constraint rischio_esecuzioni_finished check ((stato = 'running') = (finished_at is null))`);
  await knex.raw('create index rischio_esecuzioni_list on rischio_esecuzioni (cod_azienda, started_at desc, id)');
  // One run of each kind at a time per tenant.
  await knex.raw("create unique index rischio_esecuzioni_one_running on rischio_esecuzioni (cod_azienda, tipo) where stato = 'running'");
  await enableTenantRls(knex, 'rischio_esecuzioni');

  await knex.schema.createTable('rischio_esecuzioni_risultati', (t) => {
    t.uuid('esecuzione_id').notNullable().references('rischio_esecuzioni.id');
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.integer('punteggio').notNullable();
    t.text('classe').notNullable();
    t.integer('punteggio_attuale');
    t.text('classe_attuale');
    t.boolean('cambia').notNullable();
    // The contributions that differ from the customer's current ones: [{ codice, nome, prima, dopo }].
    t.jsonb('differenze').notNullable().defaultTo('[]');
    t.primary(['esecuzione_id', 'cod_anagrafe']);
  });
  await knex.raw('create index rischio_esecuzioni_risultati_cambi on rischio_esecuzioni_risultati (cod_azienda, esecuzione_id, cambia, cod_anagrafe)');
  await enableTenantRls(knex, 'rischio_esecuzioni_risultati');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'rischio_esecuzioni_risultati');
  await knex.schema.dropTable('rischio_esecuzioni_risultati');
  await disableTenantRls(knex, 'rischio_esecuzioni');
  await knex.schema.dropTable('rischio_esecuzioni');
}
