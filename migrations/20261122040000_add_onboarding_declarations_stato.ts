import type { Knex } from 'knex';

/**
 * How the case's declarations ceremony stands (active, signed, ended), written by the
 * onboarding activities: the applicant's pages read it instead of asking the workflow.
 * Existing cases take it from their ceremony's row, and a travel-rule declaration whose
 * ceremony already ended takes the state the workflow gave it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('onboarding_cases', (t) => { t.text('declarations_stato'); });
  // Row-level security is forced on these tables, for their owner too: the backfill reads every tenant.
  await knex.raw("select set_config('app.scope', 'platform', true)");
  await knex.raw(`
    update onboarding_cases c set declarations_stato = case
      when e.stato = 'signed' then 'signed' when e.stato in ('expired', 'locked', 'cancelled') then 'ended' else 'active' end
    from esign_ceremonies e where e.id = c.declarations_ceremony_id`);
  await knex.raw(`
    update onboarding_cases c set travel_rule = case when e.stato = 'signed' then c.travel_rule || '{"stato": "signed"}'::jsonb else '{"stato": "none"}'::jsonb end,
      travel_rule_ceremony_id = case when e.stato = 'signed' then c.travel_rule_ceremony_id end
    from esign_ceremonies e
    where e.id = c.travel_rule_ceremony_id and c.travel_rule ->> 'stato' = 'signing' and e.stato in ('signed', 'expired', 'locked', 'cancelled')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('onboarding_cases', (t) => { t.dropColumn('declarations_stato'); });
}
