import type { Knex } from 'knex';

/**
 * The indexes behind the lists of the list kit (src/kit/list, docs/lists.md): for every list, one
 * index per sort (tenant column first, then the sort's keys in order, ending with the unique
 * tiebreaker) and one per equality filter followed by the default sort. A btree read backwards
 * serves the descending form of a sort, so each is declared once, ascending. The cases' priority
 * sort gets a stored rank column so that it, too, reads an index. The query-plan test
 * (test/api/list-plans.test.ts) fails when a list's query needs a sequential scan.
 *
 * No trigram (pg_trgm) index for the free-text search: under row-level security PostgreSQL may not
 * use an index for `ilike` (not a leakproof operator, so it runs after the policy), so such an index
 * would cost every write and serve no list. The search reads the tenant's rows (docs/lists.md).
 */
const INDEXES: [name: string, table: string, columns: string, where?: string][] = [
  ['cases_tenant_created', 'cases', 'cod_azienda, created_at, id'],
  ['cases_tenant_sla', 'cases', 'cod_azienda, sla_due_at, id'],
  ['cases_tenant_priorita_rank', 'cases', 'cod_azienda, priorita_rank, id'],
  ['cases_tenant_titolo', 'cases', 'cod_azienda, titolo, id'],
  ['cases_tenant_stato_created', 'cases', 'cod_azienda, stato, created_at, id'],
  ['cases_tenant_priorita_created', 'cases', 'cod_azienda, priorita, created_at, id'],
  ['cases_tenant_overdue_created', 'cases', 'cod_azienda, overdue, created_at, id'],

  ['aziende_ragione_sociale', 'aziende', 'ragione_sociale, cod_azienda'],
  ['aziende_created', 'aziende', 'created_at, cod_azienda'],
  ['aziende_attiva_ragione_sociale', 'aziende', 'attiva, ragione_sociale, cod_azienda'],

  // Users: a tenant admin's list (tenant first) and a superadmin's (platform-wide, no tenant).
  ['utenti_tenant_cognome', 'utenti', 'cod_azienda, cognome, username'],
  ['utenti_tenant_username', 'utenti', 'cod_azienda, username'],
  ['utenti_tenant_created', 'utenti', 'cod_azienda, created_at, username'],
  ['utenti_tenant_last_login', 'utenti', 'cod_azienda, last_login_at, username'],
  // Sorts whose nulls stay last in both directions: the descending form has an index of its own.
  ['utenti_tenant_last_login_desc', 'utenti', 'cod_azienda, last_login_at desc nulls last, username desc'],
  ['utenti_tenant_attivo_cognome', 'utenti', 'cod_azienda, attivo, cognome, username'],
  ['utenti_cognome', 'utenti', 'cognome, username'],
  ['utenti_username', 'utenti', 'username'],
  ['utenti_created', 'utenti', 'created_at, username'],
  ['utenti_last_login', 'utenti', 'last_login_at, username'],
  ['utenti_last_login_desc', 'utenti', 'last_login_at desc nulls last, username desc'],

  ['screening_matches_tenant_created', 'screening_matches', 'cod_azienda, created_at, score, id', 'deleted_at is null'],
  ['screening_matches_tenant_stato_created', 'screening_matches', 'cod_azienda, stato, created_at, score, id', 'deleted_at is null'],
  ['screening_matches_tenant_list_created', 'screening_matches', 'cod_azienda, list_name, created_at, score, id', 'deleted_at is null'],
  ['screening_import_runs_started_id', 'screening_import_runs', 'started_at, id'],

  ['audit_events_tenant_chain', 'audit_events', 'cod_azienda, seq, id'],
  ['audit_events_tenant_action_chain', 'audit_events', 'cod_azienda, action, seq, id'],
  ['audit_events_tenant_actor_chain', 'audit_events', 'cod_azienda, actor, seq, id'],

  ['notifications_tenant_user_created', 'notifications', 'cod_azienda, cod_utente, created_at, id'],

  ['outbox_messages_tenant_created', 'outbox_messages', 'cod_azienda, created_at, id'],
  ['outbox_messages_tenant_status_created', 'outbox_messages', 'cod_azienda, status, created_at, id'],
  ['outbox_messages_tenant_kind_created', 'outbox_messages', 'cod_azienda, kind, created_at, id'],
  ['outbox_messages_created', 'outbox_messages', 'created_at, id'],
  ['outbox_messages_status_created', 'outbox_messages', 'status, created_at, id'],

  ['onboarding_cases_tenant_created', 'onboarding_cases', 'cod_azienda, created_at, id'],
  ['onboarding_cases_tenant_submitted', 'onboarding_cases', 'cod_azienda, submitted_at, id'],
  ['onboarding_cases_tenant_risk_score', 'onboarding_cases', 'cod_azienda, risk_score, id'],
  ['onboarding_cases_tenant_submitted_desc', 'onboarding_cases', 'cod_azienda, submitted_at desc nulls last, id desc'],
  ['onboarding_cases_tenant_risk_score_desc', 'onboarding_cases', 'cod_azienda, risk_score desc nulls last, id desc'],
  ['onboarding_cases_tenant_stato_created', 'onboarding_cases', 'cod_azienda, stato, created_at, id'],
  ['onboarding_cases_tenant_risk_classe_created', 'onboarding_cases', 'cod_azienda, risk_classe, created_at, id'],
  ['onboarding_cases_tenant_tipo_created', 'onboarding_cases', 'cod_azienda, tipo_soggetto, created_at, id'],
];

/** Superseded by an index above that ends with the tiebreaker (their definitions, for down). */
const REPLACED: [name: string, definition: string][] = [
  ['cases_list', 'cases (cod_azienda, created_at desc)'],
  ['cases_stato', 'cases (cod_azienda, stato, created_at desc)'],
  ['utenti_azienda_cognome', 'utenti (cod_azienda, cognome, nome)'],
  ['screening_matches_list', 'screening_matches (cod_azienda, stato, created_at desc) where deleted_at is null'],
  ['screening_import_runs_started', 'screening_import_runs (started_at desc)'],
  ['notifications_user', 'notifications (cod_azienda, cod_utente, created_at desc)'],
  ['outbox_messages_list', 'outbox_messages (cod_azienda, created_at desc)'],
  ['onboarding_cases_list', 'onboarding_cases (cod_azienda, stato, created_at desc)'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table cases add column priorita_rank smallint generated always as (
    case priorita when 'critica' then 4 when 'alta' then 3 when 'media' then 2 else 1 end) stored`);
  for (const [name, table, columns, where] of INDEXES) {
    await knex.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`);
  }
  for (const [name] of REPLACED) await knex.raw(`drop index if exists ${name}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, definition] of REPLACED) await knex.raw(`create index if not exists ${name} on ${definition}`);
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
  await knex.raw('alter table cases drop column priorita_rank');
}
