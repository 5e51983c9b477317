import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';
import { dedupeKey } from '../src/domains/records/tax-id';

/**
 * The records area takes over the customer data model (docs/records.md):
 * - anagrafe gains its dedupe key (chiave_fiscale, unique per tenant), the foreign tax id,
 *   a version counter and the soft-delete columns, with CHECKs on its vocabularies;
 * - anagrafe_versioni keeps every version of a record (who, when, which fields, the snapshot);
 * - rapporti_soggetti holds the roles on a relationship (holder, co-holder, executor, ...);
 * - legami gain validity dates, source and the kind of control; titolari_effettivi is merged
 *   into them (a beneficial owner is a legame of tipo 'titolare_effettivo') and dropped;
 * - documenti: identity and company documents with their dates.
 * Existing rows are kept: keys, first versions and holder roles are backfilled.
 *
 * The vocabularies are written out here, not imported: a migration is history and must not
 * change when the code's lists do.
 */

const TIPI_SOGGETTO = ['persona_fisica', 'ditta_individuale', 'societa'];
const STATI_ANAGRAFE = ['attivo', 'sospeso', 'cessato', 'eliminato'];
const CLASSI_RISCHIO = ['basso', 'medio', 'medio_alto', 'alto'];
const STATI_RAPPORTO = ['attivo', 'sospeso', 'chiuso'];
const RUOLI_RAPPORTO = ['intestatario', 'cointestatario', 'esecutore', 'delegato', 'titolare_effettivo'];
const FONTI = ['onboarding', 'manuale', 'import', 'registro'];
const TIPI_LEGAME = [
  'titolare_effettivo', 'legale_rappresentante', 'amministratore', 'socio', 'procuratore', 'esecutore', 'delegato',
  'familiare', 'stretto_collaboratore', 'controllante', 'altro',
];
const TIPI_CONTROLLO = ['proprieta_diretta', 'proprieta_indiretta', 'controllo', 'rappresentanza'];
const TIPI_DOCUMENTO = [
  'carta_identita', 'passaporto', 'patente', 'permesso_soggiorno', 'visura_camerale', 'atto_costitutivo', 'statuto', 'altro',
];
const STATI_DOCUMENTO = ['valido', 'scaduto', 'sostituito'];

const inList = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;
const ISO2 = (column: string) => `${column} ~ '^[A-Z]{2}$'`;

async function check(knex: Knex, table: string, name: string, predicate: string): Promise<void> {
  await knex.raw(`alter table ?? add constraint ?? check (${predicate})`, [table, name]);
}

export async function up(knex: Knex): Promise<void> {
  // Row-level security is forced for the owner too: the backfills read and write every tenant.
  await knex.raw("select set_config('app.scope', 'platform', true)");

  await extendAnagrafe(knex);
  await createVersions(knex);
  await createRelationshipRoles(knex);
  await mergeOwnersIntoLinks(knex);
  await createDocuments(knex);
  await createListIndexes(knex);
  for (const table of NEW_TABLES) await enableTenantRls(knex, table);
}

async function extendAnagrafe(knex: Knex): Promise<void> {
  await knex.schema.alterTable('anagrafe', (t) => {
    t.text('codice_fiscale_estero');
    t.text('paese_fiscale');
    t.text('chiave_fiscale');
    t.integer('versione').notNullable().defaultTo(1);
    t.text('updated_by');
    t.timestamp('eliminato_at', { useTz: true });
    t.text('eliminato_da');
    t.text('motivo_eliminazione');
  });
  await check(knex, 'anagrafe', 'anagrafe_tipo_soggetto', inList('tipo_soggetto', TIPI_SOGGETTO));
  await check(knex, 'anagrafe', 'anagrafe_stato', inList('stato', STATI_ANAGRAFE));
  await check(knex, 'anagrafe', 'anagrafe_classe_rischio', `classe_rischio is null or ${inList('classe_rischio', CLASSI_RISCHIO)}`);
  await check(knex, 'anagrafe', 'anagrafe_versione', 'versione >= 1');
  await check(knex, 'anagrafe', 'anagrafe_paese_fiscale', `paese_fiscale is null or ${ISO2('paese_fiscale')}`);
  await check(knex, 'anagrafe', 'anagrafe_chiave_fiscale', "chiave_fiscale is null or chiave_fiscale ~ '^(CF|PIVA|EST:[A-Z]{2}):\\S+$'");
  // A deleted record says when and by whom; only a deleted record does.
  await check(knex, 'anagrafe', 'anagrafe_eliminato', "(stato = 'eliminato') = (eliminato_at is not null and eliminato_da is not null)");

  // The dedupe key of the existing rows: where the ids are valid, and once per tenant (the oldest
  // record keeps it; a later duplicate stays without a key, to be merged by hand).
  const rows = await knex('anagrafe').orderBy([{ column: 'cod_azienda' }, { column: 'created_at' }, { column: 'cod_anagrafe' }])
    .select('cod_azienda', 'cod_anagrafe', 'tipo_soggetto', 'codice_fiscale', 'partita_iva');
  const taken = new Set<string>();
  const keys: { cod_azienda: string; cod_anagrafe: string; chiave: string }[] = [];
  for (const r of rows) {
    const chiave = dedupeKey(r);
    if (!chiave || taken.has(`${r.cod_azienda}\u0000${chiave}`)) continue;
    taken.add(`${r.cod_azienda}\u0000${chiave}`);
    keys.push({ cod_azienda: r.cod_azienda, cod_anagrafe: r.cod_anagrafe, chiave });
  }
  for (let i = 0; i < keys.length; i += 5_000) {
    const chunk = keys.slice(i, i + 5_000);
    await knex.raw(
      `update anagrafe a set chiave_fiscale = k.chiave
       from unnest(?::text[], ?::text[], ?::text[]) as k(cod_azienda, cod_anagrafe, chiave)
       where a.cod_azienda = k.cod_azienda and a.cod_anagrafe = k.cod_anagrafe`,
      [chunk.map((k) => k.cod_azienda), chunk.map((k) => k.cod_anagrafe), chunk.map((k) => k.chiave)],
    );
  }
  await knex.raw('create unique index anagrafe_chiave_fiscale on anagrafe (cod_azienda, chiave_fiscale) where chiave_fiscale is not null');
}

async function createVersions(knex: Knex): Promise<void> {
  await knex.schema.createTable('anagrafe_versioni', (t) => {
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.integer('versione').notNullable();
    t.text('operazione').notNullable();
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('changed_by').notNullable();
    // { field: { old, new } } of the fields the change touched ({} for the first version).
    t.jsonb('campi').notNullable().defaultTo('{}');
    // The whole record after the change: "the record as it was on D" is the last snapshot with changed_at <= D.
    t.jsonb('snapshot').notNullable();
    t.primary(['cod_azienda', 'cod_anagrafe', 'versione']);
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await check(knex, 'anagrafe_versioni', 'anagrafe_versioni_operazione', inList('operazione', ['create', 'update', 'delete']));
  await check(knex, 'anagrafe_versioni', 'anagrafe_versioni_versione', 'versione >= 1');
  await check(knex, 'anagrafe_versioni', 'anagrafe_versioni_campi', "jsonb_typeof(campi) = 'object' and jsonb_typeof(snapshot) = 'object'");
  await knex.raw('create index anagrafe_versioni_as_of on anagrafe_versioni (cod_azienda, cod_anagrafe, changed_at, versione)');
  // The existing records' first version: what they are now, as of their creation.
  await knex.raw(`
    insert into anagrafe_versioni (cod_azienda, cod_anagrafe, versione, operazione, changed_at, changed_by, campi, snapshot)
    select a.cod_azienda, a.cod_anagrafe, 1, 'create', a.created_at, a.created_by, '{}'::jsonb, to_jsonb(a) - 'cod_azienda'
    from anagrafe a`);
}

async function createRelationshipRoles(knex: Knex): Promise<void> {
  await check(knex, 'rapporti', 'rapporti_stato', inList('stato', STATI_RAPPORTO));
  await check(knex, 'rapporti', 'rapporti_date', 'data_chiusura is null or data_chiusura >= data_apertura');
  await check(knex, 'rapporti', 'rapporti_chiuso', "stato <> 'chiuso' or data_chiusura is not null");

  await knex.schema.createTable('rapporti_soggetti', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_rapporto').notNullable();
    t.text('cod_anagrafe').notNullable();
    t.text('ruolo').notNullable();
    t.date('dal').notNullable();
    t.date('al');
    t.text('fonte').notNullable().defaultTo('manuale');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_rapporto']).references(['cod_azienda', 'cod_rapporto']).inTable('rapporti');
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await check(knex, 'rapporti_soggetti', 'rapporti_soggetti_ruolo', inList('ruolo', RUOLI_RAPPORTO));
  await check(knex, 'rapporti_soggetti', 'rapporti_soggetti_fonte', inList('fonte', FONTI));
  await check(knex, 'rapporti_soggetti', 'rapporti_soggetti_date', 'al is null or al >= dal');
  // A subject holds a role on a relationship once at a time; the customer file reads a subject's relationships.
  await knex.raw('create unique index rapporti_soggetti_open on rapporti_soggetti (cod_azienda, cod_rapporto, cod_anagrafe, ruolo) where al is null');
  await knex.raw('create index rapporti_soggetti_rapporto on rapporti_soggetti (cod_azienda, cod_rapporto, dal)');
  await knex.raw('create index rapporti_soggetti_soggetto on rapporti_soggetti (cod_azienda, cod_anagrafe, cod_rapporto)');
  await knex.raw(`
    insert into rapporti_soggetti (id, cod_azienda, cod_rapporto, cod_anagrafe, ruolo, dal, al, fonte, created_by, created_at)
    select gen_random_uuid(), r.cod_azienda, r.cod_rapporto, r.cod_anagrafe, 'intestatario', r.data_apertura, r.data_chiusura,
      case when r.onboarding_case_id is null then 'manuale' else 'onboarding' end, r.created_by, r.created_at
    from rapporti r`);
}

async function mergeOwnersIntoLinks(knex: Knex): Promise<void> {
  await knex.schema.alterTable('legami', (t) => {
    t.date('dal');
    t.date('al');
    t.text('fonte').notNullable().defaultTo('manuale');
    t.text('tipo_controllo');
  });
  // A link holds from when it was recorded; those made by an approval came from onboarding.
  await knex.raw(`update legami l set dal = l.created_at::date, fonte = case when exists (select 1 from anagrafe a
      where a.cod_azienda = l.cod_azienda and a.cod_anagrafe = l.cod_anagrafe_da and a.onboarding_case_id is not null) then 'onboarding' else 'manuale' end`);

  // Each beneficial owner row becomes (or completes) the owner link of the same pair.
  await knex.raw(`
    update legami l set tipo_controllo = t.tipo_controllo, percentuale = coalesce(l.percentuale, t.percentuale),
      dal = t.dal::date, al = t.al::date
    from titolari_effettivi t
    where l.cod_azienda = t.cod_azienda and l.cod_anagrafe_da = t.cod_anagrafe and l.cod_anagrafe_a = t.cod_anagrafe_titolare
      and l.tipo = 'titolare_effettivo'`);
  await knex.raw(`
    insert into legami (id, cod_azienda, cod_anagrafe_da, cod_anagrafe_a, tipo, percentuale, tipo_controllo, dal, al, fonte, created_by, created_at)
    select t.id, t.cod_azienda, t.cod_anagrafe, t.cod_anagrafe_titolare, 'titolare_effettivo', t.percentuale, t.tipo_controllo,
      t.dal::date, t.al::date, 'manuale', t.created_by, t.created_at
    from titolari_effettivi t
    where not exists (select 1 from legami l where l.cod_azienda = t.cod_azienda and l.cod_anagrafe_da = t.cod_anagrafe
      and l.cod_anagrafe_a = t.cod_anagrafe_titolare and l.tipo = 'titolare_effettivo')`);
  // The owner's PEP flag belongs to the person (the anagrafe row), where it already is for owners made by onboarding.
  await knex.raw(`update anagrafe a set pep = true from titolari_effettivi t
    where t.pep and a.cod_azienda = t.cod_azienda and a.cod_anagrafe = t.cod_anagrafe_titolare and not a.pep`);
  await knex.raw(`update anagrafe_versioni v set snapshot = jsonb_set(v.snapshot, '{pep}', 'true') from anagrafe a
    where a.pep and v.versione = 1 and a.cod_azienda = v.cod_azienda and a.cod_anagrafe = v.cod_anagrafe and v.snapshot ->> 'pep' = 'false'`);
  await disableTenantRls(knex, 'titolari_effettivi');
  await knex.schema.dropTable('titolari_effettivi');

  // An exact duplicate (same pair, type, share and dates) is the same fact recorded twice.
  await knex.raw(`delete from legami l using legami o
    where o.cod_azienda = l.cod_azienda and o.cod_anagrafe_da = l.cod_anagrafe_da and o.cod_anagrafe_a = l.cod_anagrafe_a and o.tipo = l.tipo
      and o.percentuale is not distinct from l.percentuale and o.dal is not distinct from l.dal and o.al is not distinct from l.al
      and (o.created_at, o.id) < (l.created_at, l.id)`);
  await check(knex, 'legami', 'legami_tipo', inList('tipo', TIPI_LEGAME));
  await check(knex, 'legami', 'legami_fonte', inList('fonte', FONTI));
  await check(knex, 'legami', 'legami_percentuale', 'percentuale is null or (percentuale >= 0 and percentuale <= 100)');
  await check(knex, 'legami', 'legami_date', 'al is null or dal is null or al >= dal');
  await check(knex, 'legami', 'legami_non_riflessivo', 'cod_anagrafe_da <> cod_anagrafe_a');
  await check(knex, 'legami', 'legami_tipo_controllo',
    // Only an owner link says how the control is held (links recorded before it existed may not say).
    `tipo_controllo is null or (tipo = 'titolare_effettivo' and ${inList('tipo_controllo', TIPI_CONTROLLO)})`);
  // One open link of a type between two subjects.
  await knex.raw('create unique index legami_open on legami (cod_azienda, cod_anagrafe_da, cod_anagrafe_a, tipo) where al is null');
}

async function createDocuments(knex: Knex): Promise<void> {
  await knex.schema.createTable('documenti', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.text('tipo').notNullable();
    t.text('numero');
    t.text('autorita_rilascio');
    t.text('paese_rilascio');
    t.date('data_rilascio');
    t.date('data_scadenza');
    t.text('stato').notNullable().defaultTo('valido');
    // The scanned copy, when there is one: its content address in the document store.
    t.text('sha256');
    t.text('nome_file');
    t.text('mime');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await check(knex, 'documenti', 'documenti_tipo', inList('tipo', TIPI_DOCUMENTO));
  await check(knex, 'documenti', 'documenti_stato', inList('stato', STATI_DOCUMENTO));
  await check(knex, 'documenti', 'documenti_date', 'data_scadenza is null or data_rilascio is null or data_scadenza >= data_rilascio');
  await check(knex, 'documenti', 'documenti_paese', `paese_rilascio is null or ${ISO2('paese_rilascio')}`);
  await check(knex, 'documenti', 'documenti_copia', "(sha256 is null) = (nome_file is null) and (sha256 is null) = (mime is null) and (sha256 is null or sha256 ~ '^[0-9a-f]{64}$')");
  // The same document (type and number) is recorded once per subject.
  await knex.raw('create unique index documenti_numero on documenti (cod_azienda, cod_anagrafe, tipo, numero) where numero is not null');
  // The expiry sweep reads the tenant's documents by expiry date (also the list's sort by expiry).
  await knex.raw('create index documenti_scadenza on documenti (cod_azienda, data_scadenza, id)');
}

/** The lists of the records area (docs/lists.md): one index per sort and per equality filter. */
const LIST_INDEXES: [name: string, table: string, columns: string][] = [
  ['anagrafe_tenant_created', 'anagrafe', 'cod_azienda, created_at, cod_anagrafe'],
  ['anagrafe_tenant_denominazione', 'anagrafe', 'cod_azienda, denominazione, cod_anagrafe'],
  ['anagrafe_tenant_tipo_created', 'anagrafe', 'cod_azienda, tipo_soggetto, created_at, cod_anagrafe'],
  ['anagrafe_tenant_classe_created', 'anagrafe', 'cod_azienda, classe_rischio, created_at, cod_anagrafe'],
  ['anagrafe_tenant_stato_created', 'anagrafe', 'cod_azienda, stato, created_at, cod_anagrafe'],
  ['anagrafe_tenant_pep_created', 'anagrafe', 'cod_azienda, pep, created_at, cod_anagrafe'],
  ['anagrafe_tenant_paese_created', 'anagrafe', 'cod_azienda, paese_residenza, created_at, cod_anagrafe'],
  // The text search's exact lookups (a code typed in full).
  ['anagrafe_tenant_codice_fiscale', 'anagrafe', 'cod_azienda, codice_fiscale'],
  ['anagrafe_tenant_partita_iva', 'anagrafe', 'cod_azienda, partita_iva'],

  ['rapporti_tenant_created', 'rapporti', 'cod_azienda, created_at, cod_rapporto'],
  ['rapporti_tenant_apertura', 'rapporti', 'cod_azienda, data_apertura, cod_rapporto'],
  ['rapporti_tenant_anagrafe_created', 'rapporti', 'cod_azienda, cod_anagrafe, created_at, cod_rapporto'],
  ['rapporti_tenant_stato_created', 'rapporti', 'cod_azienda, stato, created_at, cod_rapporto'],
  ['rapporti_tenant_tipo_created', 'rapporti', 'cod_azienda, tipo, created_at, cod_rapporto'],

  ['legami_tenant_created', 'legami', 'cod_azienda, created_at, id'],
  ['legami_tenant_tipo_created', 'legami', 'cod_azienda, tipo, created_at, id'],
  ['legami_tenant_da_created', 'legami', 'cod_azienda, cod_anagrafe_da, created_at, id'],
  ['legami_tenant_a_created', 'legami', 'cod_azienda, cod_anagrafe_a, created_at, id'],
  ['legami_tenant_tipo_da_created', 'legami', 'cod_azienda, tipo, cod_anagrafe_da, created_at, id'],
  ['legami_tenant_tipo_a_created', 'legami', 'cod_azienda, tipo, cod_anagrafe_a, created_at, id'],

  ['documenti_tenant_created', 'documenti', 'cod_azienda, created_at, id'],
  ['documenti_tenant_anagrafe_created', 'documenti', 'cod_azienda, cod_anagrafe, created_at, id'],
  ['documenti_tenant_tipo_created', 'documenti', 'cod_azienda, tipo, created_at, id'],
  ['documenti_tenant_stato_created', 'documenti', 'cod_azienda, stato, created_at, id'],
];

async function createListIndexes(knex: Knex): Promise<void> {
  for (const [name, table, columns] of LIST_INDEXES) await knex.raw(`create index ?? on ?? (${columns})`, [name, table]);
}

const NEW_TABLES = ['anagrafe_versioni', 'rapporti_soggetti', 'documenti'];

export async function down(knex: Knex): Promise<void> {
  await knex.raw("select set_config('app.scope', 'platform', true)");
  for (const [name] of LIST_INDEXES) await knex.raw('drop index if exists ??', [name]);
  for (const table of [...NEW_TABLES].reverse()) {
    await disableTenantRls(knex, table);
    await knex.schema.dropTable(table);
  }
  await knex.schema.createTable('titolari_effettivi', (t) => {
    t.uuid('id').primary();
    t.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    t.text('cod_anagrafe').notNullable();
    t.text('cod_anagrafe_titolare').notNullable();
    t.decimal('percentuale', 5, 2);
    t.text('tipo_controllo').notNullable();
    t.boolean('pep').notNullable().defaultTo(false);
    t.timestamp('dal', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('al', { useTz: true });
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['cod_azienda', 'cod_anagrafe']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
    t.foreign(['cod_azienda', 'cod_anagrafe_titolare']).references(['cod_azienda', 'cod_anagrafe']).inTable('anagrafe');
  });
  await knex.raw(`insert into titolari_effettivi (id, cod_azienda, cod_anagrafe, cod_anagrafe_titolare, percentuale, tipo_controllo, pep, dal, al, created_by, created_at)
    select l.id, l.cod_azienda, l.cod_anagrafe_da, l.cod_anagrafe_a, l.percentuale, l.tipo_controllo, a.pep, coalesce(l.dal, l.created_at::date), l.al, l.created_by, l.created_at
    from legami l join anagrafe a on a.cod_azienda = l.cod_azienda and a.cod_anagrafe = l.cod_anagrafe_a where l.tipo = 'titolare_effettivo'`);
  await enableTenantRls(knex, 'titolari_effettivi');
  await knex.raw('drop index if exists legami_open');
  for (const c of ['legami_tipo', 'legami_fonte', 'legami_percentuale', 'legami_date', 'legami_non_riflessivo', 'legami_tipo_controllo']) {
    await knex.raw('alter table legami drop constraint if exists ??', [c]);
  }
  await knex.schema.alterTable('legami', (t) => { t.dropColumns('dal', 'al', 'fonte', 'tipo_controllo'); });
  for (const c of ['rapporti_stato', 'rapporti_date', 'rapporti_chiuso']) await knex.raw('alter table rapporti drop constraint if exists ??', [c]);
  await knex.raw('drop index if exists anagrafe_chiave_fiscale');
  for (const c of ['anagrafe_tipo_soggetto', 'anagrafe_stato', 'anagrafe_classe_rischio', 'anagrafe_versione', 'anagrafe_paese_fiscale', 'anagrafe_chiave_fiscale', 'anagrafe_eliminato']) {
    await knex.raw('alter table anagrafe drop constraint if exists ??', [c]);
  }
  await knex.schema.alterTable('anagrafe', (t) => {
    t.dropColumns('codice_fiscale_estero', 'paese_fiscale', 'chiave_fiscale', 'versione', 'updated_by', 'eliminato_at', 'eliminato_da', 'motivo_eliminazione');
  });
}
