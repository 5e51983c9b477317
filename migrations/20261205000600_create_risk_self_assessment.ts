import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The yearly self-assessment of money-laundering risk (Banca d'Italia, provisions of 26 March
 * 2019 on organisation, procedures and internal controls, Parte Settima) and the governance
 * records around it (docs/risk-self-assessment.md):
 * - rischio_linee: business lines, their weight and how a line maps to customers;
 * - rischio_autovalutazioni: one exercise per tenant and year (bozza -> in_approvazione ->
 *   approvata), four eyes on the approval, the figures frozen at approval;
 * - rischio_autovalutazioni_linee: per line, the inherent risk suggested by the figures and the
 *   one chosen (a reason when they differ), the vulnerability of the controls, the residual risk;
 * - rischio_controlli and rischio_controlli_test: the controls and their test results;
 * - rischio_raf_metriche, rischio_kri, rischio_kri_valori: the risk appetite framework and the
 *   key risk indicators with their monthly values;
 * - rischio_decisioni: the decision log.
 * The vocabularies are written out here: a migration keeps the values it was written with.
 */
const inList = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;
const LIVELLO = (column: string) => `${column} between 1 and 4`;
const STATI = ['bozza', 'in_approvazione', 'approvata'];
const RESIDUI = ['basso', 'medio', 'medio_alto', 'alto'];
const TIPI_SOGGETTO = ['persona_fisica', 'ditta_individuale', 'societa'];
const ESITI = ['ok', 'parzialmente', 'ko'];
const GIUDIZI = ['adeguato', 'parzialmente_adeguato', 'inadeguato'];
const FREQUENZE = ['continua', 'giornaliera', 'settimanale', 'mensile', 'trimestrale', 'semestrale', 'annuale'];
const CALCOLI = ['quota_clienti_alto_rischio', 'revisioni_cdd_scadute', 'quota_clienti_pep', 'quota_clienti_paesi_alto_rischio', 'quota_contanti', 'pratiche_cdd_scadute', 'manuale'];
const nonBlank = (column: string, max = 200) => `length(btrim(${column})) between 1 and ${max}`;

const TABLES = [
  'rischio_decisioni', 'rischio_kri_valori', 'rischio_kri', 'rischio_raf_metriche', 'rischio_controlli_test', 'rischio_controlli',
  'rischio_autovalutazioni_linee', 'rischio_autovalutazioni', 'rischio_linee',
];

async function check(knex: Knex, table: string, name: string, predicate: string): Promise<void> {
  await knex.raw(`alter table ?? add constraint ?? check (${predicate})`, [table, name]);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rischio_linee', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('codice').notNullable();
    t.text('nome').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    // Share of the whole business the line stands for, in percent; why, in motivazione_peso.
    t.decimal('peso', 5, 2).notNullable();
    t.text('motivazione_peso').notNullable().defaultTo('');
    // The line's customers: those holding an active relationship of one of these kinds, optionally of these subject types.
    t.specificType('tipi_rapporto', 'text[]').notNullable();
    t.specificType('tipi_soggetto', 'text[]').notNullable().defaultTo('{}');
    // The product's own risk before the portfolio's figures (1..4), the starting point of the suggestion.
    t.smallint('rischio_base').notNullable().defaultTo(2);
    t.integer('ordine').notNullable().defaultTo(0);
    t.boolean('attiva').notNullable().defaultTo(true);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'codice']);
  });
  await check(knex, 'rischio_linee', 'rischio_linee_codice', "codice ~ '^[a-z][a-z0-9_]{1,62}$'");
  await check(knex, 'rischio_linee', 'rischio_linee_nome', nonBlank('nome'));
  await check(knex, 'rischio_linee', 'rischio_linee_peso', 'peso > 0 and peso <= 100');
  await check(knex, 'rischio_linee', 'rischio_linee_base', LIVELLO('rischio_base'));
  await check(knex, 'rischio_linee', 'rischio_linee_tipi', 'cardinality(tipi_rapporto) >= 1');
  await check(knex, 'rischio_linee', 'rischio_linee_soggetti', `tipi_soggetto <@ array[${TIPI_SOGGETTO.map((v) => `'${v}'`).join(', ')}]::text[]`);
  await knex.raw('create index rischio_linee_list on rischio_linee (cod_azienda, ordine, codice)');

  await knex.schema.createTable('rischio_autovalutazioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.integer('anno').notNullable();
    t.text('stato').notNullable().defaultTo('bozza');
    t.text('note').notNullable().defaultTo('');
    t.text('created_by').notNullable();
    t.text('submitted_by');
    t.timestamp('submitted_at', { useTz: true });
    t.text('approved_by');
    t.timestamp('approved_at', { useTz: true });
    // The figures and the lines as they were when approved: the exercise no longer reads live data.
    t.jsonb('snapshot');
    t.text('rischio_complessivo');
    t.decimal('punteggio_complessivo', 4, 2);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'anno']);
  });
  await check(knex, 'rischio_autovalutazioni', 'rischio_autovalutazioni_stato', inList('stato', STATI));
  await check(knex, 'rischio_autovalutazioni', 'rischio_autovalutazioni_anno', 'anno between 2000 and 2100');
  await check(knex, 'rischio_autovalutazioni', 'rischio_autovalutazioni_inviata', "stato = 'bozza' or (submitted_by is not null and submitted_at is not null)");
  await check(knex, 'rischio_autovalutazioni', 'rischio_autovalutazioni_approvata',
    "(stato = 'approvata') = (approved_by is not null and approved_at is not null and snapshot is not null and rischio_complessivo is not null)");
  // Four eyes: the approver is neither the author nor the one who submitted it.
  await check(knex, 'rischio_autovalutazioni', 'rischio_autovalutazioni_four_eyes', 'approved_by is null or (approved_by <> created_by and approved_by <> submitted_by)');
  await check(knex, 'rischio_autovalutazioni', 'rischio_autovalutazioni_complessivo', `rischio_complessivo is null or ${inList('rischio_complessivo', RESIDUI)}`);
  await knex.raw('create index rischio_autovalutazioni_list on rischio_autovalutazioni (cod_azienda, anno desc)');

  await knex.schema.createTable('rischio_autovalutazioni_linee', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('autovalutazione_id').notNullable().references('rischio_autovalutazioni.id').onDelete('CASCADE');
    t.uuid('linea_id').notNullable().references('rischio_linee.id');
    t.smallint('inerente_suggerito');
    t.smallint('inerente');
    t.text('motivazione_inerente').notNullable().defaultTo('');
    t.smallint('vulnerabilita_suggerita');
    t.smallint('vulnerabilita');
    t.text('motivazione_vulnerabilita').notNullable().defaultTo('');
    t.text('residuo');
    t.decimal('peso', 5, 2).notNullable();
    t.text('updated_by');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['autovalutazione_id', 'linea_id']);
  });
  await check(knex, 'rischio_autovalutazioni_linee', 'rischio_av_linee_livelli',
    `(inerente_suggerito is null or ${LIVELLO('inerente_suggerito')}) and (inerente is null or ${LIVELLO('inerente')})
     and (vulnerabilita_suggerita is null or ${LIVELLO('vulnerabilita_suggerita')}) and (vulnerabilita is null or ${LIVELLO('vulnerabilita')})`);
  await check(knex, 'rischio_autovalutazioni_linee', 'rischio_av_linee_residuo', `residuo is null or ${inList('residuo', RESIDUI)}`);
  await check(knex, 'rischio_autovalutazioni_linee', 'rischio_av_linee_completa', '(residuo is null) = (inerente is null or vulnerabilita is null)');
  // A chosen inherent risk other than the suggested one says why.
  await check(knex, 'rischio_autovalutazioni_linee', 'rischio_av_linee_motivata',
    "inerente is null or inerente_suggerito is null or inerente = inerente_suggerito or length(btrim(motivazione_inerente)) > 0");
  await check(knex, 'rischio_autovalutazioni_linee', 'rischio_av_linee_peso', 'peso > 0 and peso <= 100');
  await knex.raw('create index rischio_av_linee_linea on rischio_autovalutazioni_linee (cod_azienda, linea_id)');

  await knex.schema.createTable('rischio_controlli', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('nome').notNullable();
    t.text('area').notNullable();
    // No line: the control covers every line (a transversal control such as training).
    t.uuid('linea_id').references('rischio_linee.id');
    t.text('responsabile').notNullable();
    t.text('frequenza').notNullable();
    t.text('disegno').notNullable();
    t.text('efficacia').notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.boolean('attivo').notNullable().defaultTo(true);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await check(knex, 'rischio_controlli', 'rischio_controlli_testi', `${nonBlank('nome')} and ${nonBlank('area')} and ${nonBlank('responsabile')}`);
  await check(knex, 'rischio_controlli', 'rischio_controlli_frequenza', inList('frequenza', FREQUENZE));
  await check(knex, 'rischio_controlli', 'rischio_controlli_giudizi', `${inList('disegno', GIUDIZI)} and ${inList('efficacia', GIUDIZI)}`);
  await knex.raw('create index rischio_controlli_list on rischio_controlli (cod_azienda, area, nome, id)');
  await knex.raw('create index rischio_controlli_linea on rischio_controlli (cod_azienda, linea_id)');

  await knex.schema.createTable('rischio_controlli_test', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('controllo_id').notNullable().references('rischio_controlli.id');
    t.date('data').notNullable();
    t.text('esito').notNullable();
    t.text('note').notNullable().defaultTo('');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await check(knex, 'rischio_controlli_test', 'rischio_controlli_test_esito', inList('esito', ESITI));
  await check(knex, 'rischio_controlli_test', 'rischio_controlli_test_nota', "esito = 'ok' or length(btrim(note)) > 0");
  await knex.raw('create index rischio_controlli_test_controllo on rischio_controlli_test (cod_azienda, controllo_id, data desc, created_at desc)');

  await knex.schema.createTable('rischio_raf_metriche', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('codice').notNullable();
    t.text('nome').notNullable();
    t.text('calcolo').notNullable();
    t.text('unita').notNullable();
    t.decimal('appetito', 14, 2).notNullable();
    t.decimal('tolleranza', 14, 2).notNullable();
    t.decimal('capacita', 14, 2).notNullable();
    // For calcolo = 'manuale': the value someone measured, and when.
    t.decimal('valore_manuale', 14, 2);
    t.text('descrizione').notNullable().defaultTo('');
    t.integer('ordine').notNullable().defaultTo(0);
    t.text('created_by').notNullable();
    t.text('updated_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'codice']);
  });
  await check(knex, 'rischio_raf_metriche', 'rischio_raf_calcolo', inList('calcolo', CALCOLI));
  await check(knex, 'rischio_raf_metriche', 'rischio_raf_unita', inList('unita', ['percentuale', 'numero']));
  // The actual must stay below each level: appetite <= tolerance <= capacity.
  await check(knex, 'rischio_raf_metriche', 'rischio_raf_livelli', 'appetito >= 0 and appetito <= tolleranza and tolleranza <= capacita');
  await check(knex, 'rischio_raf_metriche', 'rischio_raf_nome', `${nonBlank('nome')} and codice ~ '^[a-z][a-z0-9_]{1,62}$'`);
  await knex.raw('create index rischio_raf_list on rischio_raf_metriche (cod_azienda, ordine, codice)');

  await knex.schema.createTable('rischio_kri', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('codice').notNullable();
    t.text('nome').notNullable();
    t.text('calcolo').notNullable();
    t.text('unita').notNullable();
    t.decimal('soglia_ambra', 14, 2).notNullable();
    t.decimal('soglia_rossa', 14, 2).notNullable();
    t.text('descrizione').notNullable().defaultTo('');
    t.integer('ordine').notNullable().defaultTo(0);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['cod_azienda', 'codice']);
  });
  await check(knex, 'rischio_kri', 'rischio_kri_calcolo', inList('calcolo', CALCOLI));
  await check(knex, 'rischio_kri', 'rischio_kri_unita', inList('unita', ['percentuale', 'numero']));
  await check(knex, 'rischio_kri', 'rischio_kri_soglie', 'soglia_ambra >= 0 and soglia_ambra <= soglia_rossa');
  await check(knex, 'rischio_kri', 'rischio_kri_nome', `${nonBlank('nome')} and codice ~ '^[a-z][a-z0-9_]{1,62}$'`);
  await knex.raw('create index rischio_kri_list on rischio_kri (cod_azienda, ordine, codice)');

  await knex.schema.createTable('rischio_kri_valori', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.uuid('kri_id').notNullable().references('rischio_kri.id');
    // The first day of the month the value belongs to.
    t.date('mese').notNullable();
    t.decimal('valore', 14, 2).notNullable();
    t.text('fonte').notNullable();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['kri_id', 'mese']);
  });
  await check(knex, 'rischio_kri_valori', 'rischio_kri_valori_mese', "mese = date_trunc('month', mese)::date");
  await check(knex, 'rischio_kri_valori', 'rischio_kri_valori_fonte', inList('fonte', ['calcolato', 'manuale']));
  await knex.raw('create index rischio_kri_valori_serie on rischio_kri_valori (cod_azienda, kri_id, mese)');

  await knex.schema.createTable('rischio_decisioni', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.date('data').notNullable();
    t.text('oggetto').notNullable();
    t.text('decisione').notNullable();
    t.text('decisa_da').notNullable();
    t.text('motivazione').notNullable().defaultTo('');
    t.uuid('autovalutazione_id').references('rischio_autovalutazioni.id');
    t.uuid('metrica_id').references('rischio_raf_metriche.id');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await check(knex, 'rischio_decisioni', 'rischio_decisioni_testi', `${nonBlank('oggetto')} and ${nonBlank('decisione', 4000)} and ${nonBlank('decisa_da')}`);
  await knex.raw('create index rischio_decisioni_list on rischio_decisioni (cod_azienda, data desc, created_at desc, id)');

  for (const table of [...TABLES].reverse()) await enableTenantRls(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
}
