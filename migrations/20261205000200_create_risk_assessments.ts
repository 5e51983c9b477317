import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Risk assessments (valutazioni, docs/processes.md "Risk assessment"): one durable workflow
 * per assessment (workflows/risk/risk-assessment.workflow.ts) writes this table. The CHECKs
 * repeat the machine's invariants (four eyes on an override included) so that no other
 * writer can break them.
 */
const CLASSI = "('basso', 'medio', 'medio_alto', 'alto')";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rischio_valutazioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_valutazione').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('stato').notNullable();
    t.text('motivo').notNullable();
    t.text('riferimento');
    t.uuid('versione_id').references('rischio_versioni.id');
    t.integer('punteggio');
    t.text('classe_calcolata');
    t.text('classe_effettiva');
    t.text('classe_precedente');
    // { regola, classe } of the floor that raised the class, when one did.
    t.jsonb('pavimento');
    // Named contributions: [{ regola_id, codice, nome, famiglia, fattore, punti, classe_minima, letti: [{ path, valore }] }].
    t.jsonb('contributi').notNullable().defaultTo('[]');
    // The profile and the movement aggregates the rules read, as they were.
    t.jsonb('profilo').notNullable().defaultTo('{}');
    t.smallint('probabilita');
    t.smallint('impatto');
    t.text('override_classe');
    t.text('override_motivo');
    t.date('override_scadenza');
    t.text('override_by');
    t.timestamp('override_at', { useTz: true });
    t.text('override_confirmed_by');
    t.timestamp('override_confirmed_at', { useTz: true });
    t.boolean('override_scaduto').notNullable().defaultTo(false);
    t.text('released_by');
    t.timestamp('released_at', { useTz: true });
    t.text('archived_by');
    t.timestamp('archived_at', { useTz: true });
    t.uuid('superata_da');
    t.text('cod_caso');
    t.text('workflow_id').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'cod_valutazione']);
    t.unique(['workflow_id']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table rischio_valutazioni
    add constraint rischio_valutazioni_stato check (stato in ('draft', 'completed', 'override_pending', 'overridden', 'released', 'archived')),
    add constraint rischio_valutazioni_motivo check (motivo in ('manuale', 'onboarding', 'evento_screening', 'evento_anagrafe', 'evento_cdd', 'evento_monitoraggio', 'portafoglio', 'scadenza_override')),
    add constraint rischio_valutazioni_cod check (cod_valutazione ~ '^VAL-[0-9]{6,}$'),
    add constraint rischio_valutazioni_classi check ((classe_calcolata is null or classe_calcolata in ${CLASSI})
      and (classe_effettiva is null or classe_effettiva in ${CLASSI}) and (classe_precedente is null or classe_precedente in ${CLASSI})
      and (override_classe is null or override_classe in ${CLASSI})),
    add constraint rischio_valutazioni_calcolata check (stato = 'draft' or (punteggio is not null and classe_calcolata is not null and versione_id is not null)),
    add constraint rischio_valutazioni_pi check ((probabilita is null or probabilita between 1 and 4) and (impatto is null or impatto between 1 and 4)),
    add constraint rischio_valutazioni_override check (override_classe is null or (override_motivo is not null and length(btrim(override_motivo)) > 0 and override_by is not null and override_at is not null)),
    add constraint rischio_valutazioni_override_pending check (stato <> 'override_pending' or override_classe is not null),
    add constraint rischio_valutazioni_overridden check (stato <> 'overridden' or (override_confirmed_by is not null and override_confirmed_at is not null)),
    add constraint rischio_valutazioni_four_eyes check (override_confirmed_by is null or override_confirmed_by <> override_by),
    add constraint rischio_valutazioni_released check (stato not in ('released') or (released_by is not null and released_at is not null)),
    add constraint rischio_valutazioni_archived check ((stato = 'archived') = (archived_at is not null))`);
  await knex.raw('create index rischio_valutazioni_list on rischio_valutazioni (cod_azienda, created_at desc, id)');
  await knex.raw('create index rischio_valutazioni_stato on rischio_valutazioni (cod_azienda, stato, created_at desc, id)');
  await knex.raw('create index rischio_valutazioni_anagrafe on rischio_valutazioni (cod_azienda, cod_anagrafe, created_at desc)');
  await knex.raw("create index rischio_valutazioni_classe on rischio_valutazioni (cod_azienda, classe_effettiva, created_at desc, id) where stato <> 'archived'");
  await enableTenantRls(knex, 'rischio_valutazioni');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'rischio_valutazioni');
  await knex.schema.dropTable('rischio_valutazioni');
}
