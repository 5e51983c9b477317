import type { Knex } from 'knex';

/**
 * The cases list's charts count a tenant's cases by state and SLA flag (src/domains/cases/cases.charts.ts).
 * With both columns after the tenant the count is an index-only scan of the tenant's entries instead of
 * a read of the table; test/api/chart-plans.test.ts fails when a chart's count scans a whole table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index cases_tenant_stato_overdue on cases (cod_azienda, stato, overdue)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists cases_tenant_stato_overdue');
}
