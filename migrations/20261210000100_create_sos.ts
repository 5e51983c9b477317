import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Suspicious-transaction reports (docs/sos.md). Tipping-off (art. 39 d.lgs. 231/2007) is enforced
 * here, not only by the routes: besides the tenant policy, every table carries the restrictive
 * policy `sos_confidential`, which shows a report only to a signed principal (src/db/tenant.ts)
 * holding the role `sos` or `co`, or to its reporter; a child row only when its report is
 * visible. Restrictive and without a role list, it binds every database role, the platform
 * role included. SOS audit events live in their own hash chain per report (sos_audit) under the same
 * policy: the tenant's audit chain, which auditors read, holds no trace of a report.
 */
const CHILDREN = [
  'sos_operazioni', 'sos_soggetti', 'sos_rapporti', 'sos_legami', 'sos_fenomeni', 'sos_indicatori',
  'sos_allegati', 'sos_comunicazioni', 'sos_eventi', 'sos_audit',
] as const;

const REPORT_VISIBLE = "((select app_current_roles()) && array['sos', 'co']::text[] or reporter::text = (select app_current_user()))";
const PARENT_VISIBLE = '(exists (select 1 from sos_reports r where r.id = sos_id))';

async function confidential(knex: Knex, table: string, predicate: string) {
  await knex.raw(`create policy sos_confidential on ?? as restrictive using ${predicate} with check ${predicate}`, [table]);
}

const base = (knex: Knex, t: Knex.CreateTableBuilder) => {
  t.uuid('id').primary();
  t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
  t.uuid('sos_id').notNullable().references('sos_reports.id');
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence sos_reports_numero');
  await knex.schema.createTable('sos_reports', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.bigInteger('numero').notNullable().defaultTo(knex.raw("nextval('sos_reports_numero')"));
    t.text('tipo').notNullable().defaultTo('originale');
    t.uuid('sostituisce_id').references('sos_reports.id');
    t.text('stato').notNullable();
    t.text('origine').notNullable();
    t.text('origine_ref');
    t.text('cod_anagrafe').notNullable();
    t.text('oggetto').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.uuid('reporter').notNullable();
    t.text('reporter_username').notNullable();
    t.text('valutatore');
    t.text('motivazione_archiviazione');
    t.text('protocollo_uif');
    t.timestamp('trasmessa_at', { useTz: true });
    t.integer('valutazione_giorni').notNullable();
    t.timestamp('valutazione_scadenza', { useTz: true });
    t.boolean('escalated').notNullable().defaultTo(false);
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('closed_at', { useTz: true });
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table sos_reports
    add column cod_segnalazione text generated always as ('SOS-' || lpad(numero::text, greatest(6, length(numero::text)), '0')) stored,
    add constraint sos_reports_tipo check (tipo in ('originale', 'sostitutiva')),
    add constraint sos_reports_sostitutiva check ((tipo = 'sostitutiva') = (sostituisce_id is not null)),
    add constraint sos_reports_origine check (origine in ('alert', 'caso', 'cdd', 'manuale')),
    add constraint sos_reports_stato check (stato in ('draft', 'submitted', 'under_evaluation', 'archived', 'to_transmit', 'transmitted', 'closed')),
    add constraint sos_reports_trasmessa check (stato not in ('transmitted', 'closed') or protocollo_uif is not null)`);
  await knex.raw('create unique index sos_reports_codice on sos_reports (cod_azienda, cod_segnalazione)');
  await knex.raw('create index sos_reports_list on sos_reports (cod_azienda, created_at desc)');
  await knex.raw('create index sos_reports_stato on sos_reports (cod_azienda, stato, created_at desc)');
  await enableTenantRls(knex, 'sos_reports');
  await confidential(knex, 'sos_reports', REPORT_VISIBLE);

  await knex.schema.createTable('sos_operazioni', (t) => {
    base(knex, t);
    t.uuid('movimento_id');
    t.text('cod_alert');
    t.date('data_operazione').notNullable();
    t.decimal('importo', 18, 2).notNullable();
    t.text('valuta').notNullable().defaultTo('EUR');
    t.text('segno');
    t.text('causale');
    t.text('descrizione').notNullable().defaultTo('');
  });
  await knex.schema.createTable('sos_soggetti', (t) => {
    base(knex, t);
    t.text('cod_anagrafe');
    t.text('nominativo').notNullable();
    t.text('codice_fiscale');
    t.text('ruolo').notNullable();
  });
  await knex.raw("alter table sos_soggetti add constraint sos_soggetti_ruolo check (ruolo in ('cliente', 'esecutore', 'controparte', 'titolare_effettivo', 'altro'))");
  await knex.schema.createTable('sos_rapporti', (t) => {
    base(knex, t);
    t.text('cod_rapporto');
    t.text('descrizione').notNullable();
  });
  await knex.schema.createTable('sos_legami', (t) => {
    base(knex, t);
    t.uuid('soggetto_da').notNullable().references('sos_soggetti.id');
    t.uuid('soggetto_a').notNullable().references('sos_soggetti.id');
    t.text('tipo').notNullable();
  });
  await knex.schema.createTable('sos_fenomeni', (t) => {
    base(knex, t);
    t.text('codice').notNullable();
    t.unique(['sos_id', 'codice']);
  });
  await knex.schema.createTable('sos_indicatori', (t) => {
    base(knex, t);
    t.integer('indicatore').notNullable();
    t.text('sottoindice');
    t.boolean('proposto').notNullable().defaultTo(false);
    t.unique(['sos_id', 'indicatore', 'sottoindice']);
  });
  await knex.schema.createTable('sos_allegati', (t) => {
    base(knex, t);
    t.text('sha256').notNullable();
    t.text('nome_file').notNullable();
    t.text('mime').notNullable();
    t.integer('dimensione').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.text('created_by').notNullable();
  });
  await knex.schema.createTable('sos_comunicazioni', (t) => {
    base(knex, t);
    t.text('direzione').notNullable();
    t.date('data').notNullable();
    t.text('oggetto').notNullable();
    t.text('testo').notNullable().defaultTo('');
    t.text('protocollo');
    t.text('created_by').notNullable();
  });
  await knex.raw("alter table sos_comunicazioni add constraint sos_comunicazioni_direzione check (direzione in ('inviata', 'ricevuta'))");
  await knex.schema.createTable('sos_eventi', (t) => {
    base(knex, t);
    t.text('tipo').notNullable();
    t.text('testo').notNullable();
    t.text('actor').notNullable();
  });
  // The SOS audit chain: every write and every read, hashed in order under a per-tenant lock.
  await knex.schema.createTable('sos_audit', (t) => {
    base(knex, t);
    t.bigInteger('seq').notNullable();
    t.text('actor').notNullable();
    t.text('action').notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.text('prev_hash').notNullable();
    t.text('hash').notNullable();
    t.unique(['sos_id', 'seq']);
  });
  await knex.raw(`create function sos_audit_append_only() returns trigger language plpgsql as $$
    begin raise exception 'sos_audit is append-only'; end $$`);
  await knex.raw('create trigger sos_audit_append_only before update or delete on sos_audit for each row execute function sos_audit_append_only()');
  for (const table of CHILDREN) {
    await knex.raw(`create index ?? on ?? (cod_azienda, sos_id, created_at)`, [`${table}_sos`, table]);
    await enableTenantRls(knex, table);
    await confidential(knex, table, PARENT_VISIBLE);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [...CHILDREN].reverse()) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
  await knex.raw('drop function sos_audit_append_only()');
  await disableTenantRls(knex, 'sos_reports');
  await knex.schema.dropTable('sos_reports');
  await knex.raw('drop sequence sos_reports_numero');
}
