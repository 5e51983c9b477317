import type { Knex } from 'knex';

/** How many one-time codes a ceremony has sent: the signer may ask for a new one, a few times. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('esign_ceremonies', (t) => {
    t.integer('otp_sends').notNullable().defaultTo(0);
  });
  await knex.raw('update esign_ceremonies set otp_sends = 1 where otp_sent_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('esign_ceremonies', (t) => {
    t.dropColumn('otp_sends');
  });
}
