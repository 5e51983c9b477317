import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true });
const stamps = (knex: Knex, t: Knex.CreateTableBuilder) => {
  ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
  ts(t, 'updated_at').notNullable().defaultTo(knex.fn.now());
};

/**
 * Onboarding: the applicant's case (the workflow's read model) with its documents,
 * wallets, resume links and customer sessions; and the records an approval creates:
 * the customer (anagrafe), the relationship (rapporto), links (legami), beneficial owners,
 * the customer's wallets and the first periodic review.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('onboarding_cases', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('stato').notNullable();
    t.text('tipo_soggetto');
    t.text('email');
    t.text('canale').notNullable().defaultTo('online');
    t.jsonb('anagrafe').notNullable().defaultTo('{}');
    t.jsonb('ubo').notNullable().defaultTo('[]');
    t.jsonb('cdd_answers').notNullable().defaultTo('{}');
    t.text('cdd_schema_version');
    t.jsonb('countries').notNullable().defaultTo('[]');
    t.jsonb('travel_rule').notNullable().defaultTo('{}');
    t.jsonb('validation');
    t.jsonb('screening');
    t.jsonb('risk');
    t.integer('risk_score');
    t.text('risk_classe');
    t.boolean('pep');
    t.uuid('declarations_ceremony_id');
    t.uuid('travel_rule_ceremony_id');
    ts(t, 'submitted_at');
    t.integer('submissions').notNullable().defaultTo(0);
    t.text('approved_by');
    t.text('approved_by_username');
    ts(t, 'approved_at');
    t.text('second_approver_username');
    ts(t, 'decided_at');
    t.text('rejection_reason');
    t.text('info_request_message');
    ts(t, 'info_requested_at');
    t.text('cod_anagrafe');
    ts(t, 'erased_at');
    ts(t, 'expired_at');
    ts(t, 'last_edit_at').notNullable().defaultTo(knex.fn.now());
    t.text('workflow_id').notNullable();
    stamps(knex, t);
  });
  await knex.raw('create index onboarding_cases_list on onboarding_cases (cod_azienda, stato, created_at desc)');
  await knex.raw('create index onboarding_cases_email on onboarding_cases (cod_azienda, lower(email))');

  await knex.schema.createTable('onboarding_documents', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('case_id').notNullable().references('onboarding_cases.id').onDelete('CASCADE');
    t.text('tipo').notNullable();
    // 'soggetto' or the id of the beneficial owner the document belongs to.
    t.text('riferimento').notNullable().defaultTo('soggetto');
    t.text('nome_file').notNullable();
    // Sniffed from the bytes, never taken from the upload's label.
    t.text('mime').notNullable();
    t.integer('dimensione').notNullable();
    // Content address in the document store.
    t.text('sha256').notNullable();
    t.text('uploaded_by').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index onboarding_documents_case on onboarding_documents (case_id)');

  await knex.schema.createTable('onboarding_wallets', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('case_id').notNullable().references('onboarding_cases.id').onDelete('CASCADE');
    t.text('rete').notNullable();
    t.text('indirizzo').notNullable();
    t.text('tipo').notNullable();
    t.text('vasp_nome');
    t.decimal('volume_annuo_eur', 16, 2);
    t.jsonb('prova');
    t.text('stato').notNullable().defaultTo('pending');
    t.jsonb('screening');
    t.text('verified_by');
    ts(t, 'verified_at');
    t.text('revoked_by');
    ts(t, 'revoked_at');
    t.text('revoke_reason');
    stamps(knex, t);
  });
  await knex.raw('create index onboarding_wallets_case on onboarding_wallets (case_id)');

  // Single-use resume links: the link is a signed token; this row makes it usable once.
  await knex.schema.createTable('onboarding_links', (t) => {
    t.uuid('jti').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('case_id').notNullable().references('onboarding_cases.id').onDelete('CASCADE');
    t.text('purpose').notNullable();
    ts(t, 'expires_at').notNullable();
    ts(t, 'used_at');
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
  });

  // The applicant's session: bound to one case; the cookie holds a random id, the row its hash.
  await knex.schema.createTable('onboarding_sessions', (t) => {
    t.text('id_hash').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('case_id').notNullable().references('onboarding_cases.id').onDelete('CASCADE');
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    ts(t, 'last_seen_at').notNullable().defaultTo(knex.fn.now());
    ts(t, 'expires_at').notNullable();
  });

  // Per-tenant progressive codes (ANA-000001, RAP-000001).
  await knex.schema.createTable('codici_progressivi', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('serie').notNullable();
    t.integer('ultimo').notNullable().defaultTo(0);
    t.primary(['cod_azienda', 'serie']);
  });

  await knex.schema.createTable('anagrafe', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.text('tipo_soggetto').notNullable();
    t.text('denominazione').notNullable();
    t.text('nome');
    t.text('cognome');
    t.text('codice_fiscale');
    t.text('partita_iva');
    t.date('data_nascita');
    t.text('luogo_nascita');
    t.text('nazionalita');
    t.text('paese_residenza');
    t.jsonb('indirizzo');
    t.text('email');
    t.text('telefono');
    t.text('attivita');
    t.boolean('pep').notNullable().defaultTo(false);
    t.text('classe_rischio');
    t.integer('punteggio_rischio');
    t.text('stato').notNullable().defaultTo('attivo');
    t.text('ruolo').notNullable().defaultTo('cliente');
    t.uuid('onboarding_case_id');
    t.jsonb('dati').notNullable().defaultTo('{}');
    t.text('created_by').notNullable();
    stamps(knex, t);
    t.primary(['cod_azienda', 'cod_anagrafe']);
  });

  await knex.schema.createTable('rapporti', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_rapporto').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('tipo').notNullable();
    t.text('stato').notNullable().defaultTo('attivo');
    t.date('data_apertura').notNullable();
    t.date('data_chiusura');
    t.text('scopo');
    t.text('natura');
    t.uuid('onboarding_case_id');
    t.text('created_by').notNullable();
    stamps(knex, t);
    t.primary(['cod_azienda', 'cod_rapporto']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });

  await knex.schema.createTable('legami', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe_da').notNullable();
    t.text('cod_anagrafe_a').notNullable();
    // titolare_effettivo, legale_rappresentante, esecutore, ...
    t.text('tipo').notNullable();
    t.decimal('percentuale', 5, 2);
    t.text('note');
    t.text('created_by').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe_da']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
    t.foreign(['cod_azienda', 'cod_anagrafe_a']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });

  await knex.schema.createTable('titolari_effettivi', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    // The entity (or sole trader) owned or controlled.
    t.text('cod_anagrafe').notNullable();
    // The natural person who owns or controls it.
    t.text('cod_anagrafe_titolare').notNullable();
    t.decimal('percentuale', 5, 2);
    // proprieta_diretta, proprieta_indiretta, controllo, rappresentanza (art. 20 d.lgs. 231/2007)
    t.text('tipo_controllo').notNullable();
    t.boolean('pep').notNullable().defaultTo(false);
    ts(t, 'dal').notNullable().defaultTo(knex.fn.now());
    ts(t, 'al');
    t.text('created_by').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
    t.foreign(['cod_azienda', 'cod_anagrafe_titolare']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });

  await knex.schema.createTable('wallets', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.text('rete').notNullable();
    t.text('indirizzo').notNullable();
    t.text('tipo').notNullable();
    t.text('vasp_nome');
    t.text('stato').notNullable();
    t.jsonb('prova');
    t.uuid('onboarding_wallet_id');
    stamps(knex, t);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });

  await knex.schema.createTable('cdd_reviews', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.text('motivo').notNullable();
    t.text('classe_rischio');
    ts(t, 'due_at').notNullable();
    // programmata -> scaduta (due) -> taken over by the CDD process
    t.text('stato').notNullable().defaultTo('programmata');
    t.text('workflow_id').notNullable();
    stamps(knex, t);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });

  for (const table of TABLES) await enableTenantRls(knex, table);
}

const TABLES = [
  'onboarding_cases', 'onboarding_documents', 'onboarding_wallets', 'onboarding_links', 'onboarding_sessions', 'codici_progressivi',
  'anagrafe', 'rapporti', 'legami', 'titolari_effettivi', 'wallets', 'cdd_reviews',
];

export async function down(knex: Knex): Promise<void> {
  for (const table of [...TABLES].reverse()) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
