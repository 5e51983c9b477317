import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Regulatory reports generated from the movements (docs/reporting.md): comunicazioni oggettive and
 * S.AR.A. aggregated data. The report row the report's workflow projects, its lines, the
 * operations behind each line, and its submissions with their outcome.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reporting_reports', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('tipo').notNullable();
    t.text('periodo').notNullable();
    t.text('stato').notNullable();
    t.smallint('progresso').notNullable().defaultTo(0);
    t.text('fase');
    t.boolean('negativa');
    t.integer('righe').notNullable().defaultTo(0);
    t.integer('operazioni').notNullable().defaultTo(0);
    t.decimal('totale_eur', 18, 2).notNullable().defaultTo(0);
    t.text('errore');
    t.text('generated_by').notNullable();
    t.text('generated_by_username').notNullable();
    t.text('approved_by');
    t.timestamp('approved_at', { useTz: true });
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.boolean('due_soon').notNullable().defaultTo(false);
    t.boolean('overdue').notNullable().defaultTo(false);
    t.uuid('filing_id');
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
  });
  await knex.raw(`alter table reporting_reports
    add constraint reporting_reports_tipo check (tipo in ('comunicazione_oggettiva', 'sara')),
    add constraint reporting_reports_periodo check (periodo ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    add constraint reporting_reports_stato check (stato in ('generating', 'generated', 'approved', 'submitted', 'completed', 'failed')),
    add constraint reporting_reports_progresso check (progresso between 0 and 100)`);
  // One live report per type and month: a failed generation may be asked again.
  await knex.raw("create unique index reporting_reports_month on reporting_reports (cod_azienda, tipo, periodo) where stato <> 'failed'");
  // The list kit's sorts and filters (docs/lists.md): tenant first, ending with id.
  await knex.raw('create index reporting_reports_created on reporting_reports (cod_azienda, created_at, id)');
  await knex.raw('create index reporting_reports_periodo_sort on reporting_reports (cod_azienda, periodo, id)');
  await knex.raw('create index reporting_reports_due on reporting_reports (cod_azienda, due_at, id)');
  await knex.raw('create index reporting_reports_stato on reporting_reports (cod_azienda, stato, created_at, id)');
  await knex.raw('create index reporting_reports_overdue on reporting_reports (cod_azienda, created_at, id) where overdue');
  await enableTenantRls(knex, 'reporting_reports');

  await knex.schema.createTable('reporting_lines', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('report_id').notNullable().references('reporting_reports.id');
    t.integer('n').notNullable();
    // Comunicazione oggettiva: subject, relationship and their external codes; the subject's roles.
    t.text('cod_anagrafe');
    t.text('anagrafe_codice_esterno');
    t.text('cod_rapporto');
    t.text('rapporto_codice_esterno');
    t.specificType('ruoli', 'text[]');
    // S.AR.A.: the aggregate's keys.
    t.text('causale');
    t.text('residenza');
    t.text('settore');
    t.text('segno').notNullable();
    t.decimal('totale_eur', 18, 2).notNullable();
    t.integer('numero').notNullable();
    t.decimal('contanti_eur', 18, 2).notNullable().defaultTo(0);
    t.integer('numero_contanti').notNullable().defaultTo(0);
    t.unique(['report_id', 'n']);
  });
  await knex.raw('create index reporting_lines_report on reporting_lines (cod_azienda, report_id, n)');
  await enableTenantRls(knex, 'reporting_lines');

  // The operations behind each line; the movement's date is kept so reading one back prunes to its month.
  await knex.schema.createTable('reporting_line_operations', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('report_id').notNullable().references('reporting_reports.id');
    t.uuid('line_id').notNullable().references('reporting_lines.id');
    t.uuid('movimento_id').notNullable();
    t.date('data_operazione').notNullable();
    t.text('ruolo');
    t.primary(['line_id', 'movimento_id']);
  });
  await knex.raw('create index reporting_line_operations_report on reporting_line_operations (cod_azienda, report_id, line_id)');
  await enableTenantRls(knex, 'reporting_line_operations');

  await knex.schema.createTable('reporting_submissions', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('report_id').notNullable().references('reporting_reports.id');
    t.integer('n').notNullable();
    t.text('riferimento');
    t.text('inviata_da').notNullable();
    t.timestamp('inviata_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('esito').notNullable().defaultTo('in_attesa');
    t.text('protocollo');
    t.text('note');
    t.text('esito_da');
    t.timestamp('esito_at', { useTz: true });
    t.unique(['report_id', 'n']);
  });
  await knex.raw("alter table reporting_submissions add constraint reporting_submissions_esito check (esito in ('in_attesa', 'accettata', 'scartata'))");
  await knex.raw('create index reporting_submissions_report on reporting_submissions (cod_azienda, report_id, n)');
  await enableTenantRls(knex, 'reporting_submissions');
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['reporting_submissions', 'reporting_line_operations', 'reporting_lines', 'reporting_reports']) {
    await disableTenantRls(knex, t);
    await knex.schema.dropTable(t);
  }
}
