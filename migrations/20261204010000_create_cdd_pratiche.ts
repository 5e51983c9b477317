import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';
import { DEFAULT_KYC_TEMPLATE } from '../src/domains/cdd/kyc-template.default';

const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true });
const stamps = (knex: Knex, t: Knex.CreateTableBuilder) => {
  ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
  ts(t, 'updated_at').notNullable().defaultTo(knex.fn.now());
};
const inList = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;

// Written out here, not imported: a migration keeps the values it was written with.
const STATI = ['open', 'in_progress', 'pending_review', 'completed', 'abstained', 'deleted'];
const OPEN = ['open', 'in_progress', 'pending_review'];
const LIVELLI = ['semplificata', 'ordinaria', 'rafforzata'];
const MOTIVI = ['manuale', 'onboarding', 'revisione_periodica', 'nuovo_match_screening', 'cambio_classe_rischio', 'documento_in_scadenza'];
const EVIDENZE = ['documento', 'verifica_fonte', 'nota', 'questionario', 'altro'];

/**
 * The CDD task (adeguata verifica: the read model of `cddTaskWorkflow`), its evidence, the
 * events that started tasks (so a repeated event starts nothing twice), and the KYC
 * questionnaires: versioned templates (platform data, no tenant) and the questionnaires
 * filled in for a customer from them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cdd_pratiche', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_pratica').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('livello').notNullable();
    // [{ codice, testo }]: why this level (art. 23-25 d.lgs. 231/2007), as decided at initiation.
    t.jsonb('motivazioni_livello').notNullable().defaultTo('[]');
    t.text('classe_rischio');
    t.boolean('pep').notNullable().defaultTo(false);
    t.text('motivo').notNullable();
    // What started it: { review_id } | { documento_id, data_scadenza } | { match_id } | { da, a } ...
    t.jsonb('origine').notNullable().defaultTo('{}');
    t.text('stato').notNullable();
    t.uuid('assegnatario');
    t.text('revisore');
    t.boolean('analista_puo_completare').notNullable().defaultTo(false);
    t.boolean('edd_richiesta').notNullable().defaultTo(false);
    t.text('nota');
    // When the task should be done: the tenant's working time (cdd.task_days), or earlier when the event has its own date (a document's expiry).
    ts(t, 'due_at').notNullable();
    t.text('created_by').notNullable();
    t.text('started_by');
    ts(t, 'started_at');
    t.text('review_requested_by');
    t.text('review_requested_by_username');
    ts(t, 'review_requested_at');
    t.text('completed_by');
    t.text('completed_by_username');
    ts(t, 'completed_at');
    t.text('motivazione_astensione');
    t.text('abstained_by');
    ts(t, 'abstained_at');
    t.text('motivo_eliminazione');
    t.text('deleted_by');
    ts(t, 'deleted_at');
    t.uuid('review_id').references('cdd_reviews.id');
    t.uuid('next_review_id').references('cdd_reviews.id');
    ts(t, 'next_review_at');
    t.uuid('last_transition_id');
    t.text('workflow_id').notNullable();
    stamps(knex, t);
    t.unique(['cod_azienda', 'cod_pratica']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
    t.check(inList('stato', STATI), [], 'cdd_pratiche_stato');
    t.check(inList('livello', LIVELLI), [], 'cdd_pratiche_livello');
    t.check(inList('motivo', MOTIVI), [], 'cdd_pratiche_motivo');
    t.check("cod_pratica ~ '^CDD-[0-9]{6,}$'", [], 'cdd_pratiche_codice');
    t.check("stato <> 'abstained' or coalesce(btrim(motivazione_astensione), '') <> ''", [], 'cdd_pratiche_astensione_motivata');
    t.check("stato <> 'deleted' or coalesce(btrim(motivo_eliminazione), '') <> ''", [], 'cdd_pratiche_eliminazione_motivata');
  });
  // One task being worked per customer: a second initiation finds it (and a race loses here).
  await knex.raw(`create unique index cdd_pratiche_una_aperta on cdd_pratiche (cod_azienda, cod_anagrafe) where ${inList('stato', OPEN)}`);
  await knex.raw('create index cdd_pratiche_list on cdd_pratiche (cod_azienda, created_at desc, id desc)');
  await knex.raw('create index cdd_pratiche_stato on cdd_pratiche (cod_azienda, stato, created_at desc, id desc)');
  await knex.raw('create index cdd_pratiche_livello on cdd_pratiche (cod_azienda, livello, created_at desc, id desc)');
  await knex.raw('create index cdd_pratiche_motivo on cdd_pratiche (cod_azienda, motivo, created_at desc, id desc)');
  await knex.raw('create index cdd_pratiche_cliente on cdd_pratiche (cod_azienda, cod_anagrafe, created_at desc, id desc)');
  await knex.raw('create index cdd_pratiche_due on cdd_pratiche (cod_azienda, due_at, id)');
  await knex.raw(`create index cdd_pratiche_scadute on cdd_pratiche (cod_azienda, due_at, id) where ${inList('stato', OPEN)}`);
  await knex.raw('create index cdd_pratiche_codice_sort on cdd_pratiche (cod_azienda, cod_pratica, id)');
  await knex.raw('create index cdd_pratiche_assegnatario on cdd_pratiche (cod_azienda, assegnatario, created_at desc, id desc) where assegnatario is not null');

  await knex.schema.createTable('cdd_evidenze', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('cdd_pratica_id').notNullable().references('cdd_pratiche.id');
    t.text('tipo').notNullable();
    t.text('descrizione').notNullable();
    // A document id, a register's reference, a URL consulted.
    t.text('riferimento');
    t.text('sha256');
    t.text('nome_file');
    t.text('mime');
    t.bigInteger('dimensione');
    t.text('created_by').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    t.check(inList('tipo', EVIDENZE), [], 'cdd_evidenze_tipo');
    t.check("btrim(descrizione) <> ''", [], 'cdd_evidenze_descrizione');
    t.check("sha256 is null or sha256 ~ '^[0-9a-f]{64}$'", [], 'cdd_evidenze_sha256');
    t.check('dimensione is null or dimensione >= 0', [], 'cdd_evidenze_dimensione');
    t.check('(sha256 is null) = (nome_file is null)', [], 'cdd_evidenze_file');
  });
  await knex.raw('create index cdd_evidenze_pratica on cdd_evidenze (cod_azienda, cdd_pratica_id, created_at)');

  // The events that started (or joined) a task: a periodic review, an expiring document, a match.
  await knex.schema.createTable('cdd_attivazioni', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('chiave').notNullable();
    t.uuid('cdd_pratica_id').notNullable().references('cdd_pratiche.id');
    t.text('motivo').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    t.primary(['cod_azienda', 'chiave']);
    t.check(inList('motivo', MOTIVI), [], 'cdd_attivazioni_motivo');
  });
  await knex.raw('create index cdd_attivazioni_pratica on cdd_attivazioni (cod_azienda, cdd_pratica_id)');

  // Platform data: every tenant reads the same templates (a new version is a new row, never an edit).
  await knex.schema.createTable('questionari_template', (t) => {
    t.uuid('id').primary();
    t.text('codice').notNullable();
    t.integer('versione').notNullable();
    t.text('titolo').notNullable();
    t.jsonb('domande').notNullable();
    t.boolean('attivo').notNullable().defaultTo(false);
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    t.unique(['codice', 'versione']);
    t.check('versione > 0', [], 'questionari_template_versione');
    t.check("jsonb_typeof(domande) = 'array' and jsonb_array_length(domande) > 0", [], 'questionari_template_domande');
  });
  await knex.raw('create unique index questionari_template_attivo on questionari_template (codice) where attivo');

  await knex.schema.createTable('questionari', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_questionario').notNullable();
    t.uuid('template_id').notNullable().references('questionari_template.id');
    t.text('template_codice').notNullable();
    t.integer('template_versione').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('tipo_soggetto').notNullable();
    t.uuid('cdd_pratica_id').references('cdd_pratiche.id');
    t.jsonb('risposte').notNullable().defaultTo('{}');
    t.text('stato').notNullable().defaultTo('bozza');
    t.text('created_by').notNullable();
    t.text('updated_by');
    t.text('completed_by');
    ts(t, 'completed_at');
    stamps(knex, t);
    t.unique(['cod_azienda', 'cod_questionario']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
    t.check("stato in ('bozza', 'completato')", [], 'questionari_stato');
    t.check("cod_questionario ~ '^QST-[0-9]{6,}$'", [], 'questionari_codice');
    t.check("jsonb_typeof(risposte) = 'object'", [], 'questionari_risposte');
    t.check("(stato = 'completato') = (completed_at is not null)", [], 'questionari_completato');
  });
  await knex.raw('create index questionari_cliente on questionari (cod_azienda, cod_anagrafe, created_at desc, id desc)');
  await knex.raw('create index questionari_pratica on questionari (cod_azienda, cdd_pratica_id, created_at desc) where cdd_pratica_id is not null');

  // The schedules list (GET /api/cdd/schedules): by due date, and per customer.
  await knex.raw('create index cdd_reviews_due on cdd_reviews (cod_azienda, due_at, id)');
  await knex.raw('create index cdd_reviews_cliente on cdd_reviews (cod_azienda, cod_anagrafe, due_at, id)');

  for (const table of TENANT_TABLES) await enableTenantRls(knex, table);

  await knex('questionari_template').insert({
    id: DEFAULT_KYC_TEMPLATE.id, codice: DEFAULT_KYC_TEMPLATE.codice, versione: DEFAULT_KYC_TEMPLATE.versione,
    titolo: DEFAULT_KYC_TEMPLATE.titolo, domande: JSON.stringify(DEFAULT_KYC_TEMPLATE.domande), attivo: true,
  });
}

const TENANT_TABLES = ['cdd_pratiche', 'cdd_evidenze', 'cdd_attivazioni', 'questionari'];

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists cdd_reviews_due');
  await knex.raw('drop index if exists cdd_reviews_cliente');
  for (const table of ['questionari', 'cdd_attivazioni', 'cdd_evidenze', 'cdd_pratiche']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
  await knex.schema.dropTable('questionari_template');
}
