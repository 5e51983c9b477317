import type { Knex } from 'knex';

/**
 * Document records (issue 13, part docs): the list's search finds a document by its number
 * (documenti.numero, stored upper case without spaces); the existing documenti_numero index leads
 * with the subject, so a number alone needs its own. See documents.list.ts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists documenti_tenant_numero on documenti (cod_azienda, numero) where numero is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists documenti_tenant_numero');
}
