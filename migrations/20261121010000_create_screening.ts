import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Screening. The sanctions lists are platform data shared by every tenant (no cod_azienda,
 * no RLS); subjects, matches and suppressions belong to a tenant.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('screening_import_runs', (t) => {
    t.uuid('id').primary();
    t.text('workflow_id').notNullable();
    t.text('trigger').notNullable();
    t.text('status').notNullable().defaultTo('running');
    t.jsonb('progress').notNullable().defaultTo('{}');
    t.integer('lists_total').notNullable().defaultTo(0);
    t.integer('lists_done').notNullable().defaultTo(0);
    t.integer('added').notNullable().defaultTo(0);
    t.integer('modified').notNullable().defaultTo(0);
    t.integer('removed').notNullable().defaultTo(0);
    t.integer('matches_created').notNullable().defaultTo(0);
    t.text('requested_by');
    t.text('error');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });
  await knex.raw("alter table screening_import_runs add constraint screening_import_runs_trigger check (trigger in ('manual','schedule'))");
  await knex.raw("alter table screening_import_runs add constraint screening_import_runs_status check (status in ('running','completed','failed'))");
  await knex.raw('create index screening_import_runs_started on screening_import_runs (started_at desc)');

  await knex.schema.createTable('screening_list_versions', (t) => {
    t.bigIncrements('id');
    t.text('list_name').notNullable();
    t.text('source_path').notNullable();
    t.text('content_hash').notNullable();
    t.integer('entry_count').notNullable();
    t.integer('added').notNullable().defaultTo(0);
    t.integer('modified').notNullable().defaultTo(0);
    t.integer('removed').notNullable().defaultTo(0);
    t.uuid('import_run_id').references('screening_import_runs.id');
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index screening_list_versions_list on screening_list_versions (list_name, id desc)');

  await knex.schema.createTable('screening_list_entries', (t) => {
    t.bigIncrements('id');
    t.text('list_name').notNullable();
    t.text('entry_id').notNullable();
    t.text('content_hash').notNullable();
    t.jsonb('data').notNullable();
    t.bigInteger('first_version_id').notNullable().references('screening_list_versions.id');
    /** Latest version that still contains the entry: older than the list's latest means removed. */
    t.bigInteger('last_version_id').notNullable().references('screening_list_versions.id');
    /** Version in which the content last changed (added or modified): what delta re-screening reads. */
    t.bigInteger('changed_version_id').notNullable().references('screening_list_versions.id');
    t.unique(['list_name', 'entry_id']);
  });
  await knex.raw('create index screening_list_entries_changed on screening_list_entries (changed_version_id)');
  await knex.raw('create index screening_list_entries_last on screening_list_entries (list_name, last_version_id)');

  await knex.schema.createTable('screening_subjects', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe');
    t.text('tipo').notNullable();
    t.text('nome').notNullable();
    t.text('data_nascita');
    t.text('nazionalita');
    t.specificType('wallets', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('last_screened_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("alter table screening_subjects add constraint screening_subjects_tipo check (tipo in ('person','company'))");
  await knex.raw('create unique index screening_subjects_anagrafe on screening_subjects (cod_azienda, cod_anagrafe) where cod_anagrafe is not null');
  await enableTenantRls(knex, 'screening_subjects');

  await knex.schema.createTable('screening_matches', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('subject_id').notNullable().references('screening_subjects.id');
    t.text('list_name').notNullable();
    t.text('entry_id').notNullable();
    t.text('entry_hash').notNullable();
    t.double('score').notNullable();
    t.jsonb('breakdown').notNullable().defaultTo('{}');
    t.text('stato').notNullable().defaultTo('open');
    t.uuid('assegnatario');
    t.text('esito_richiesto');
    t.text('resolution_reason');
    t.text('resolution_requested_by');
    t.text('resolved_by');
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.text('deleted_by');
    t.uuid('import_run_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("alter table screening_matches add constraint screening_matches_stato check (stato in ('open','assigned','true_match','false_positive'))");
  // One match per subject and entry content: a re-screen of the same pair raises nothing new.
  await knex.raw('create unique index screening_matches_pair on screening_matches (cod_azienda, subject_id, list_name, entry_id, entry_hash)');
  await knex.raw('create index screening_matches_list on screening_matches (cod_azienda, stato, created_at desc) where deleted_at is null');
  await enableTenantRls(knex, 'screening_matches');

  await knex.schema.createTable('screening_suppressions', (t) => {
    t.bigIncrements('id');
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('subject_key').notNullable();
    t.text('list_name').notNullable();
    t.text('entry_id').notNullable();
    t.text('entry_hash').notNullable();
    t.uuid('match_id');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'subject_key', 'list_name', 'entry_id', 'entry_hash']);
  });
  await enableTenantRls(knex, 'screening_suppressions');
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['screening_suppressions', 'screening_matches', 'screening_subjects']) {
    await disableTenantRls(knex, t);
    await knex.schema.dropTable(t);
  }
  await knex.schema.dropTable('screening_list_entries');
  await knex.schema.dropTable('screening_list_versions');
  await knex.schema.dropTable('screening_import_runs');
}
