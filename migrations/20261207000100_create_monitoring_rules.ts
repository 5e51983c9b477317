import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * Transaction-monitoring rules (docs/monitoring.md, "Rules, versions and release gates").
 *
 * - monitoring_regole: a rule's stable identity (cod_regola, per tenant), its name and the
 *   typology it detects. Alerts name the rule by it whatever version raised them.
 * - monitoring_regole_versioni: the versions, bozza -> attiva -> ritirata. At most one draft and one
 *   active version per rule, held by two partial unique indexes so that two writers can never
 *   both open a draft or both activate one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('monitoring_regole', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_regola').notNullable();
    t.text('nome').notNullable();
    t.text('tipologia').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'cod_regola']);
  });
  await knex.raw(`alter table monitoring_regole
    add constraint monitoring_regole_cod check (cod_regola ~ '^[a-z][a-z0-9_]{1,62}$'),
    add constraint monitoring_regole_nome check (char_length(btrim(nome)) between 1 and 200),
    add constraint monitoring_regole_tipologia check (tipologia ~ '^[a-z][a-z0-9_]{1,62}$')`);
  // The rules list: by code (the unique constraint's index: a code is unique in its tenant), by creation, by typology.
  await knex.raw('create index monitoring_regole_created on monitoring_regole (cod_azienda, created_at, id)');
  await knex.raw('create index monitoring_regole_tipologia on monitoring_regole (cod_azienda, tipologia, cod_regola, id)');
  await enableTenantRls(knex, 'monitoring_regole');

  await knex.schema.createTable('monitoring_regole_versioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('regola_id').notNullable().references('monitoring_regole.id');
    t.integer('versione').notNullable();
    t.text('stato').notNullable();
    t.jsonb('condizione').notNullable();
    t.text('ambito').notNullable();
    t.text('livello').notNullable();
    t.integer('punteggio').notNullable();
    t.text('esito').notNullable();
    t.integer('finestra_dedup_giorni').notNullable();
    t.specificType('indicatori', 'text[]').notNullable().defaultTo('{}');
    t.text('descrizione').notNullable().defaultTo('');
    // The version a draft was copied from (null for a rule's first draft).
    t.uuid('basata_su').references('monitoring_regole_versioni.id');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('updated_by').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('activated_by');
    t.timestamp('activated_at', { useTz: true });
    t.text('retired_by');
    t.timestamp('retired_at', { useTz: true });
    t.text('motivazione_ritiro');
    t.unique(['regola_id', 'versione']);
  });
  await knex.raw(`alter table monitoring_regole_versioni
    add constraint monitoring_regole_versioni_stato check (stato in ('bozza', 'attiva', 'ritirata')),
    add constraint monitoring_regole_versioni_versione check (versione > 0),
    add constraint monitoring_regole_versioni_ambito check (ambito in ('evento', 'giornaliero')),
    add constraint monitoring_regole_versioni_livello check (livello in ('cliente', 'rapporto')),
    add constraint monitoring_regole_versioni_punteggio check (punteggio between 1 and 100),
    add constraint monitoring_regole_versioni_esito check (esito in ('alert', 'osserva')),
    add constraint monitoring_regole_versioni_dedup check (finestra_dedup_giorni between 0 and 365),
    add constraint monitoring_regole_versioni_condizione check (jsonb_typeof(condizione) = 'object'),
    add constraint monitoring_regole_versioni_indicatori check (cardinality(indicatori) <= 50),
    add constraint monitoring_regole_versioni_attivata check (stato = 'bozza' or (activated_by is not null and activated_at is not null)),
    add constraint monitoring_regole_versioni_ritirata check ((stato = 'ritirata') = (retired_at is not null and retired_by is not null))`);
  // At most one draft and one active version per rule.
  await knex.raw("create unique index monitoring_regole_versioni_una_bozza on monitoring_regole_versioni (regola_id) where stato = 'bozza'");
  await knex.raw("create unique index monitoring_regole_versioni_una_attiva on monitoring_regole_versioni (regola_id) where stato = 'attiva'");
  // What the evaluation paths load: the tenant's active versions.
  await knex.raw("create index monitoring_regole_versioni_attive on monitoring_regole_versioni (cod_azienda, regola_id) where stato = 'attiva'");
  await enableTenantRls(knex, 'monitoring_regole_versioni');
}

export async function down(knex: Knex): Promise<void> {
  await disableTenantRls(knex, 'monitoring_regole_versioni');
  await knex.schema.dropTable('monitoring_regole_versioni');
  await disableTenantRls(knex, 'monitoring_regole');
  await knex.schema.dropTable('monitoring_regole');
}
