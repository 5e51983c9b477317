import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The SOS and filing lists in the list kit (docs/lists.md), and the link between a transmitted SOS
 * and the goAML filing made from it (docs/sos.md, "From an SOS to a goAML filing").
 *
 * - Indexes, tenant first, for each sort and each equality filter of `sos.reports` and `filings`;
 *   they replace the two plain (cod_azienda, created_at desc) indexes.
 * - `filings.cod_anagrafe` (the customer a filing is about, filtered on) and `filings.riservata`: a
 *   filing made from an SOS carries the report's content, so the restrictive policy
 *   `filings_riservate` shows it only to a signed principal holding `sos` or `co` (as the report).
 * - `sos_filings`: the link, under the SOS tables' own `sos_confidential` policy, so the report
 *   behind a filing is visible exactly to who may see the report.
 */
const RESERVED_VISIBLE = "(not riservata or (select app_current_roles()) && array['sos', 'co']::text[])";
const PARENT_VISIBLE = '(exists (select 1 from sos_reports r where r.id = sos_id))';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists sos_reports_list');
  await knex.raw('drop index if exists sos_reports_stato');
  await knex.raw('create index sos_reports_by_created on sos_reports (cod_azienda, created_at, id)');
  await knex.raw('create index sos_reports_by_term on sos_reports (cod_azienda, valutazione_scadenza, id)');
  await knex.raw('create index sos_reports_by_stato on sos_reports (cod_azienda, stato, created_at, id)');
  await knex.raw('create index sos_reports_by_tipo on sos_reports (cod_azienda, tipo, created_at, id)');
  await knex.raw('create index sos_reports_by_customer on sos_reports (cod_azienda, cod_anagrafe, created_at, id)');
  await knex.raw('create index sos_reports_by_reporter on sos_reports (cod_azienda, reporter, created_at, id)');

  await knex.schema.alterTable('filings', (t) => {
    t.text('cod_anagrafe');
    t.boolean('riservata').notNullable().defaultTo(false);
  });
  await knex.raw('drop index if exists filings_list');
  await knex.raw('create index filings_by_created on filings (cod_azienda, created_at, id)');
  await knex.raw('create index filings_by_due on filings (cod_azienda, due_at, id)');
  await knex.raw('create index filings_by_stato on filings (cod_azienda, stato, created_at, id)');
  await knex.raw('create index filings_by_tipo on filings (cod_azienda, tipo, created_at, id)');
  await knex.raw('create index filings_by_customer on filings (cod_azienda, cod_anagrafe, created_at, id)');
  await knex.raw(`create policy filings_riservate on filings as restrictive using ${RESERVED_VISIBLE} with check ${RESERVED_VISIBLE}`);

  await knex.schema.createTable('sos_filings', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('sos_id').notNullable().references('sos_reports.id');
    t.uuid('filing_id').notNullable().references('filings.id').unique();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index sos_filings_sos on sos_filings (cod_azienda, sos_id, created_at)');
  await enableTenantRls(knex, 'sos_filings');
  await knex.raw(`create policy sos_confidential on sos_filings as restrictive using ${PARENT_VISIBLE} with check ${PARENT_VISIBLE}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop policy if exists sos_confidential on sos_filings');
  await disableTenantRls(knex, 'sos_filings');
  await knex.schema.dropTable('sos_filings');
  await knex.raw('drop policy if exists filings_riservate on filings');
  for (const i of ['filings_by_created', 'filings_by_due', 'filings_by_stato', 'filings_by_tipo', 'filings_by_customer']) await knex.raw(`drop index if exists ${i}`);
  await knex.raw('create index filings_list on filings (cod_azienda, created_at desc)');
  await knex.schema.alterTable('filings', (t) => { t.dropColumn('riservata'); t.dropColumn('cod_anagrafe'); });
  for (const i of ['sos_reports_by_created', 'sos_reports_by_term', 'sos_reports_by_stato', 'sos_reports_by_tipo', 'sos_reports_by_customer', 'sos_reports_by_reporter']) {
    await knex.raw(`drop index if exists ${i}`);
  }
  await knex.raw('create index sos_reports_list on sos_reports (cod_azienda, created_at desc)');
  await knex.raw('create index sos_reports_stato on sos_reports (cod_azienda, stato, created_at desc)');
}
