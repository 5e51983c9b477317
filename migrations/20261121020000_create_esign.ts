import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/** E-signature ceremonies: one row per ceremony, written only by the ceremony workflow's activities. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('esign_ceremonies', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('stato').notNullable();
    t.text('signer_nome').notNullable();
    t.text('signer_email').notNullable();
    t.text('document_name').notNullable();
    t.binary('document_content').notNullable();
    // Fixed at "present": what the signer saw is what gets signed.
    t.text('document_sha256');
    t.text('consent_text').notNullable();
    t.text('consent_version').notNullable();
    // sha256(code + ":" + id): the code itself is never stored.
    t.text('otp_hash');
    t.integer('otp_attempts').notNullable().defaultTo(0);
    t.timestamp('otp_sent_at', { useTz: true });
    t.text('token_hash').notNullable();
    t.text('ip');
    t.text('user_agent');
    t.timestamp('terms_accepted_at', { useTz: true });
    t.timestamp('presented_at', { useTz: true });
    t.timestamp('signed_at', { useTz: true });
    t.jsonb('bundle');
    t.text('parent_workflow_id');
    t.text('created_by').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index esign_ceremonies_list on esign_ceremonies (cod_azienda, created_at desc)');
  await enableTenantRls(knex, 'esign_ceremonies');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'esign_ceremonies');
  await knex.schema.dropTable('esign_ceremonies');
}
