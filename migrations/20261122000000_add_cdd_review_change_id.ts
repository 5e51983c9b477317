import type { Knex } from 'knex';

/** The last reschedule or cancellation written to a periodic review: a retried projection finds it and writes nothing twice. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cdd_reviews', (t) => { t.uuid('last_change_id'); });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cdd_reviews', (t) => { t.dropColumn('last_change_id'); });
}
