import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The events that started (or joined) a risk assessment: a new screening match, a change of the
 * customer's data, a CDD completed. The risk events sweep (workflows/risk/risk-events.workflow.ts)
 * records each event's key here once its assessment started, so an event never starts a second
 * one however often the sweep runs; several events of one customer in one run share one assessment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rischio_eventi', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('chiave').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('motivo').notNullable();
    t.uuid('valutazione_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['cod_azienda', 'chiave']);
  });
  await knex.raw(`alter table rischio_eventi
    add constraint rischio_eventi_motivo check (motivo in ('evento_screening', 'evento_anagrafe', 'evento_cdd', 'evento_monitoraggio'))`);
  await knex.raw('create index rischio_eventi_valutazione on rischio_eventi (cod_azienda, valutazione_id)');
  await enableTenantRls(knex, 'rischio_eventi');
  // The sweep reads the last days' customer versions and completed CDD tasks of a tenant.
  await knex.raw('create index if not exists anagrafe_versioni_changed on anagrafe_versioni (cod_azienda, changed_at)');
  await knex.raw("create index if not exists cdd_pratiche_completed on cdd_pratiche (cod_azienda, completed_at) where stato = 'completed'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists cdd_pratiche_completed');
  await knex.raw('drop index if exists anagrafe_versioni_changed');
  await disableTenantRls(knex, 'rischio_eventi');
  await knex.schema.dropTable('rischio_eventi');
}
