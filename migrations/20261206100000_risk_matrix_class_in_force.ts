import type { Knex } from 'knex';

/**
 * The risk matrix places a customer by the class in force (docs/risk.md): rischio_correnti's
 * `probabilita` becomes the ordinal of coalesce(classe_effettiva, classe_calcolata), so a
 * customer whose override was released sits in the row of the class that applies to them.
 * Rows written before are brought in line; the history (rischio_storico) keeps each
 * calculation's own probability.
 */
const ORDINAL = "case coalesce(classe_effettiva, classe_calcolata) when 'basso' then 1 when 'medio' then 2 when 'medio_alto' then 3 else 4 end";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("select set_config('app.scope', 'platform', true)");
  await knex.raw(`update rischio_correnti set probabilita = ${ORDINAL} where probabilita is distinct from ${ORDINAL}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("select set_config('app.scope', 'platform', true)");
  await knex.raw("update rischio_correnti set probabilita = case classe_calcolata when 'basso' then 1 when 'medio' then 2 when 'medio_alto' then 3 else 4 end");
}
