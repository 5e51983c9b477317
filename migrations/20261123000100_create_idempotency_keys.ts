import type { Knex } from 'knex';

// The answers to API writes sent with an Idempotency-Key, so a retry gets the first answer.
// A platform table (the platform role only): a stored answer may carry any tenant's data.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    /** Who sent it (a user in a tenant, an applicant's case, a signer, an address), then the key. */
    t.text('scope').notNullable();
    t.text('key').notNullable();
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable().defaultTo('running');
    /**
     * Which run of the request this is. A retry after an answer that changed nothing for sure
     * (the update failed) is a new run, with new workflow update ids; a retry after an
     * answer that could not tell (a timeout: the update may still be applied) is the same
     * run again, so Temporal answers it with the first update's outcome.
     */
    t.integer('attempt').notNullable().defaultTo(0);
    t.integer('response_status');
    t.text('response_type');
    t.text('response_location');
    t.text('response_body');
    /** A request that died while running leaves its key locked until then; after it, a retry runs again. */
    t.timestamp('locked_until', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['scope', 'key']);
  });
  await knex.raw("alter table idempotency_keys add constraint idempotency_keys_state check (state in ('running', 'done', 'retry'))");
  await knex.raw('create index idempotency_keys_expires on idempotency_keys (expires_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
