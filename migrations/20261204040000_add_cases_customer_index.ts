import type { Knex } from 'knex';

/**
 * The customer file lists a customer's investigation cases, newest first
 * (src/domains/cases/cases.customer.ts): without this index it read all of the tenant's cases.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index cases_tenant_customer on cases (cod_azienda, cod_anagrafe, created_at desc, id desc) where cod_anagrafe is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists cases_tenant_customer');
}
