import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('id');
    // '_platform' chains the events that belong to no tenant (for example, creating one).
    t.text('cod_azienda').notNullable();
    t.bigInteger('seq').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.text('actor').notNullable();
    t.text('action').notNullable();
    t.text('entity_type').notNullable();
    t.text('entity_id').notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.text('prev_hash').notNullable();
    t.text('hash').notNullable();
    t.unique(['cod_azienda', 'seq']);
  });
  await knex.raw('create index audit_events_entity on audit_events (cod_azienda, entity_type, entity_id, seq)');
  await knex.raw('create index audit_events_time on audit_events (cod_azienda, occurred_at desc)');
  await knex.raw('create index audit_events_actor on audit_events (cod_azienda, actor, occurred_at desc)');
  await enableTenantRls(knex, 'audit_events');
  // Append-only even for a role that was granted more than it should.
  await knex.raw(`
    create function audit_events_immutable() returns trigger language plpgsql as $$
    begin raise exception 'audit_events is append-only'; end $$`);
  await knex.raw(`create trigger audit_events_no_change before update or delete on audit_events
    for each row execute function audit_events_immutable()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists audit_events_no_change on audit_events');
  await knex.raw('drop function if exists audit_events_immutable()');
  await disableTenantRls(knex, 'audit_events');
  await knex.schema.dropTable('audit_events');
}
