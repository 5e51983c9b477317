import type { Knex } from 'knex';

/**
 * The matrix drill-down (/rischio/matrice/:p/:i) lists a cell's customers by score, highest
 * first: the cell's rows in score order without sorting them (the list's cursor keys).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index rischio_correnti_cella_punteggio on rischio_correnti (cod_azienda, probabilita, impatto, punteggio, cod_anagrafe)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists rischio_correnti_cella_punteggio');
}
