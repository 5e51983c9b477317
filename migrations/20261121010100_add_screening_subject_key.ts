import type { Knex } from 'knex';

/** A subject screened again without cod_anagrafe is found by its normalised data. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('screening_subjects', (t) => { t.text('subject_key'); });
  await knex.raw('create index screening_subjects_key on screening_subjects (cod_azienda, subject_key) where cod_anagrafe is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('screening_subjects', (t) => { t.dropColumn('subject_key'); });
}
