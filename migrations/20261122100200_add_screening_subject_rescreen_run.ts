import type { Knex } from 'knex';

/**
 * The re-screen run that last screened a subject: a page of a re-screen skips subjects its run
 * already screened, so a retried page screens each subject once. Pages walk a tenant's
 * subjects by id, hence the index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('screening_subjects', (t) => { t.uuid('rescreen_run_id'); });
  await knex.raw('create index screening_subjects_tenant_id on screening_subjects (cod_azienda, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists screening_subjects_tenant_id');
  await knex.schema.alterTable('screening_subjects', (t) => { t.dropColumn('rescreen_run_id'); });
}
