import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Outgoing messages (the outbox): written in the transaction of the change that causes
 * them, delivered by a workflow per message. The body is sealed (it may carry a one-time
 * code or a resume link); recipient, subject and status stay readable for the operators.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox_messages', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('kind').notNullable();
    t.text('recipient').notNullable();
    t.text('subject').notNullable();
    // SecretBox-sealed JSON { text, html }.
    t.text('body_sealed').notNullable();
    t.text('entity_type');
    t.text('entity_id');
    // The same cause never queues two messages.
    t.text('dedup_key').notNullable();
    t.text('message_id').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('last_attempt_at', { useTz: true });
    // An attempt under way holds the message until then (no second sender, no connection held while sending).
    t.timestamp('claimed_until', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("alter table outbox_messages add constraint outbox_messages_status check (status in ('pending', 'sent', 'failed'))");
  await knex.raw('create unique index outbox_messages_dedup on outbox_messages (cod_azienda, dedup_key)');
  // The operators' page (newest first per tenant) and the sweep (pending, oldest first).
  await knex.raw('create index outbox_messages_list on outbox_messages (cod_azienda, created_at desc)');
  await knex.raw("create index outbox_messages_pending on outbox_messages (updated_at) where status = 'pending'");
  await enableTenantRls(knex, 'outbox_messages');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'outbox_messages');
  await knex.schema.dropTable('outbox_messages');
}
