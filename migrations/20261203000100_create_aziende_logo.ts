import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * A tenant's logo, shown to its applicants and signers on the public pages. The bytes live
 * in PostgreSQL (a few KB, capped by the upload), under the tenant's row-level security like
 * every other tenant row; sha256 is the ETag and the cache-busting version of its URL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('aziende_logo', (t) => {
    t.text('cod_azienda').primary().references('aziende.cod_azienda');
    t.text('content_type').notNullable();
    t.binary('contenuto').notNullable();
    t.text('sha256').notNullable();
    t.integer('dimensione').notNullable();
    t.text('updated_by');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("alter table aziende_logo add constraint aziende_logo_content_type check (content_type in ('image/png','image/jpeg','image/webp'))");
  await knex.raw('alter table aziende_logo add constraint aziende_logo_dimensione check (dimensione > 0 and dimensione <= 204800)');
  await enableTenantRls(knex, 'aziende_logo');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'aziende_logo');
  await knex.schema.dropTable('aziende_logo');
}
