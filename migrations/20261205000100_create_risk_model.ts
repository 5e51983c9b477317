import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The customer risk model as data (issue 12, EBA/GL/2021/02): factors in the four EBA
 * families, versioned rule sets (draft, active, retired) whose rules are conditions of the
 * shared condition language (src/kit/conditions) with a score contribution and an optional
 * floor, the policy thresholds that map a score to a class and its consequences, and the
 * scores themselves: every calculation a point of history, the latest one per customer the
 * current state that portfolio views read.
 */
const FAMIGLIE = "('cliente', 'geografia', 'prodotto', 'canale')";
const CLASSI = "('basso', 'medio', 'medio_alto', 'alto')";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rischio_fattori', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('codice').notNullable();
    t.text('nome').notNullable();
    t.text('famiglia').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.boolean('attivo').notNullable().defaultTo(true);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'codice']);
  });
  await knex.raw(`alter table rischio_fattori
    add constraint rischio_fattori_famiglia check (famiglia in ${FAMIGLIE}),
    add constraint rischio_fattori_codice check (codice ~ '^[a-z][a-z0-9_]{1,62}$'),
    add constraint rischio_fattori_nome check (length(btrim(nome)) between 1 and 200)`);
  await knex.raw('create index rischio_fattori_list on rischio_fattori (cod_azienda, famiglia, codice)');
  await enableTenantRls(knex, 'rischio_fattori');

  await knex.schema.createTable('rischio_versioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.integer('versione').notNullable();
    t.text('stato').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.uuid('basata_su').references('rischio_versioni.id');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('activated_by');
    t.timestamp('activated_at', { useTz: true });
    t.text('retired_by');
    t.timestamp('retired_at', { useTz: true });
    t.unique(['cod_azienda', 'versione']);
  });
  await knex.raw(`alter table rischio_versioni
    add constraint rischio_versioni_stato check (stato in ('draft', 'active', 'retired')),
    add constraint rischio_versioni_versione check (versione > 0),
    add constraint rischio_versioni_activated check (stato = 'draft' or (activated_by is not null and activated_at is not null)),
    add constraint rischio_versioni_retired check ((stato = 'retired') = (retired_at is not null))`);
  // One active version and at most one draft per tenant: every assessment knows which rules it used.
  await knex.raw("create unique index rischio_versioni_one_active on rischio_versioni (cod_azienda) where stato = 'active'");
  await knex.raw("create unique index rischio_versioni_one_draft on rischio_versioni (cod_azienda) where stato = 'draft'");
  await enableTenantRls(knex, 'rischio_versioni');

  await knex.schema.createTable('rischio_regole', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('versione_id').notNullable().references('rischio_versioni.id');
    t.uuid('fattore_id').notNullable().references('rischio_fattori.id');
    t.text('codice').notNullable();
    t.text('nome').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.jsonb('condizione').notNullable();
    t.integer('punti').notNullable();
    t.text('classe_minima');
    t.boolean('attiva').notNullable().defaultTo(true);
    t.integer('ordine').notNullable().defaultTo(0);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('updated_by');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['versione_id', 'codice']);
  });
  await knex.raw(`alter table rischio_regole
    add constraint rischio_regole_codice check (codice ~ '^[a-z][a-z0-9_]{1,62}$'),
    add constraint rischio_regole_nome check (length(btrim(nome)) between 1 and 200),
    add constraint rischio_regole_punti check (punti between -100 and 100),
    add constraint rischio_regole_classe_minima check (classe_minima is null or classe_minima in ${CLASSI}),
    add constraint rischio_regole_condizione check (jsonb_typeof(condizione) = 'object')`);
  await knex.raw('create index rischio_regole_versione on rischio_regole (cod_azienda, versione_id, ordine, codice)');
  await knex.raw('create index rischio_regole_fattore on rischio_regole (cod_azienda, fattore_id)');
  await enableTenantRls(knex, 'rischio_regole');

  await knex.schema.createTable('rischio_soglie', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('classe').notNullable();
    t.integer('punteggio_min').notNullable();
    t.text('livello_cdd').notNullable();
    t.integer('revisione_mesi').notNullable();
    t.text('approvazione').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.text('updated_by').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'classe']);
  });
  await knex.raw(`alter table rischio_soglie
    add constraint rischio_soglie_classe check (classe in ${CLASSI}),
    add constraint rischio_soglie_punteggio check (punteggio_min between 0 and 1000),
    add constraint rischio_soglie_livello check (livello_cdd in ('semplificata', 'ordinaria', 'rafforzata')),
    add constraint rischio_soglie_revisione check (revisione_mesi between 1 and 120),
    add constraint rischio_soglie_approvazione check (approvazione in ('analyst', 'co', 'co_four_eyes'))`);
  await enableTenantRls(knex, 'rischio_soglie');

  // Every calculation, whatever started it (an assessment, a portfolio run, onboarding):
  // the history chart and "the class on a date" read it.
  await knex.schema.createTable('rischio_storico', (t) => {
    t.bigIncrements('id');
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.uuid('versione_id').notNullable().references('rischio_versioni.id');
    t.integer('punteggio').notNullable();
    t.text('classe').notNullable();
    t.smallint('probabilita').notNullable();
    t.smallint('impatto').notNullable();
    t.text('origine').notNullable();
    t.uuid('valutazione_id');
    t.uuid('esecuzione_id');
    t.timestamp('calcolato_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table rischio_storico
    add constraint rischio_storico_classe check (classe in ${CLASSI}),
    add constraint rischio_storico_pi check (probabilita between 1 and 4 and impatto between 1 and 4),
    add constraint rischio_storico_origine check (origine in ('manuale', 'evento', 'portafoglio', 'onboarding', 'scadenza_override'))`);
  await knex.raw('create index rischio_storico_anagrafe on rischio_storico (cod_azienda, cod_anagrafe, calcolato_at desc)');
  await knex.raw('create index rischio_storico_tempo on rischio_storico (cod_azienda, calcolato_at)');
  await enableTenantRls(knex, 'rischio_storico');

  // The latest calculation per customer and the class in force (after overrides): one row per
  // customer, what the portfolio, heatmap and matrix aggregate without scanning the history.
  await knex.schema.createTable('rischio_correnti', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.uuid('versione_id').notNullable().references('rischio_versioni.id');
    t.integer('punteggio').notNullable();
    t.text('classe_calcolata').notNullable();
    t.text('classe_effettiva');
    t.smallint('probabilita').notNullable();
    t.smallint('impatto').notNullable();
    t.jsonb('contributi').notNullable().defaultTo('[]');
    t.uuid('valutazione_id');
    t.timestamp('calcolato_at', { useTz: true }).notNullable();
    t.primary(['cod_azienda', 'cod_anagrafe']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`alter table rischio_correnti
    add constraint rischio_correnti_classe check (classe_calcolata in ${CLASSI} and (classe_effettiva is null or classe_effettiva in ${CLASSI})),
    add constraint rischio_correnti_pi check (probabilita between 1 and 4 and impatto between 1 and 4)`);
  await knex.raw('create index rischio_correnti_matrice on rischio_correnti (cod_azienda, probabilita, impatto, cod_anagrafe)');
  await knex.raw('create index rischio_correnti_classe on rischio_correnti (cod_azienda, classe_effettiva, cod_anagrafe)');
  await enableTenantRls(knex, 'rischio_correnti');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rischio_correnti', 'rischio_storico', 'rischio_soglie', 'rischio_regole', 'rischio_versioni', 'rischio_fattori']) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
