import type { Knex } from 'knex';

/**
 * What transaction monitoring reads of a customer (docs/monitoring.md, part 0; docs/records.md):
 * - `codice_esterno`: the customer's code in the source system, unique per tenant when present
 *   (imports of relationships and movements name the customer by it);
 * - `ateco` (economic sector; its shape checked here, the division by the application),
 *   `professione` (occupation), `data_onboarding` (when the customer relationship began);
 * - the declared profile: `volume_mensile_atteso_eur` (expected monthly volume in euro) and
 *   `uso_contanti_atteso` (expected cash use).
 *
 * Existing customers onboarded through the wizard take what their case says (the onboarding date,
 * the person's occupation, the questionnaire's yearly band as a monthly figure and its cash answer,
 * as src/domains/records/records.declared.ts maps them), each as a new version of the record by
 * `sistema`, so the history and the record "as it was" stay true. The mapping is written out here:
 * a migration is history and must not change when the code does.
 */

const USI_CONTANTI = ['nessuno', 'basso', 'medio', 'alto'];
const BANDS: Record<string, number> = { fino_10k: 10_000, '10k_50k': 50_000, '50k_250k': 250_000, '250k_1m': 1_000_000, oltre_1m: 1_000_000 };
const FIELDS = ['codice_esterno', 'ateco', 'professione', 'data_onboarding', 'volume_mensile_atteso_eur', 'uso_contanti_atteso'];
const ACTOR = 'sistema';

export async function up(knex: Knex): Promise<void> {
  // Row-level security is forced for the owner too: the backfill reads and writes every tenant.
  await knex.raw("select set_config('app.scope', 'platform', true)");
  await knex.schema.alterTable('anagrafe', (t) => {
    t.text('codice_esterno');
    t.text('ateco');
    t.text('professione');
    t.date('data_onboarding');
    // As movements' amounts (numeric(18, 2)); the application takes up to 10^12.
    t.decimal('volume_mensile_atteso_eur', 18, 2);
    t.text('uso_contanti_atteso');
  });
  const check = (name: string, predicate: string) => knex.raw(`alter table anagrafe add constraint ${name} check (${predicate})`);
  await check('anagrafe_codice_esterno', "codice_esterno is null or (char_length(codice_esterno) between 1 and 64 and codice_esterno !~ '\\s')");
  // {0,1}, not '?': knex.raw reads a question mark as a binding.
  await check('anagrafe_ateco', "ateco is null or ateco ~ '^[0-9]{2}(\\.[0-9]{1,2}|\\.[0-9]{2}\\.[0-9]{1,2}){0,1}$'");
  await check('anagrafe_professione', 'professione is null or char_length(professione) <= 200');
  await check('anagrafe_volume_mensile', 'volume_mensile_atteso_eur is null or volume_mensile_atteso_eur >= 0');
  await check('anagrafe_uso_contanti', `uso_contanti_atteso is null or uso_contanti_atteso in (${USI_CONTANTI.map((u) => `'${u}'`).join(', ')})`);
  // The external code names one customer of the tenant; the list's filter reads this index too.
  await knex.raw('create unique index anagrafe_codice_esterno on anagrafe (cod_azienda, codice_esterno) where codice_esterno is not null');

  await backfillFromOnboarding(knex);
}

async function backfillFromOnboarding(knex: Knex): Promise<void> {
  const answers = "coalesce(c.cdd_answers -> 'risposte', c.cdd_answers)";
  const band = `case ${answers} ->> 'volume_annuo' ${Object.entries(BANDS).map(([k, v]) => `when '${k}' then round(${v} / 12.0, 2)`).join(' ')} end`;
  const cash = `case lower(${answers} ->> 'contanti') when 'true' then 'alto' when 'si' then 'alto' when 'sì' then 'alto' when 'on' then 'alto'
    when 'false' then 'basso' when 'no' then 'basso' when 'off' then 'basso' end`;
  const field = (name: string, value: string) => `case when s.${name} is not null then jsonb_build_object('${name}', ${value}) else '{}'::jsonb end`;
  const changes = (value: (name: string) => string) => ['data_onboarding', 'professione', 'volume_mensile_atteso_eur', 'uso_contanti_atteso']
    .map((n) => field(n, value(n))).join(' || ');
  const json = (n: string) => (n === 'data_onboarding' ? "to_char(s.data_onboarding, 'YYYY-MM-DD')" : n === 'volume_mensile_atteso_eur' ? 's.volume_mensile_atteso_eur' : `s.${n}`);
  await knex.raw(`
    with s as (
      select a.cod_azienda, a.cod_anagrafe,
             case when a.ruolo = 'cliente' and c.id is not null
                  then (coalesce(c.approved_at, c.decided_at, a.created_at) at time zone 'Europe/Rome')::date end as data_onboarding,
             nullif(left(btrim(a.dati ->> 'professione'), 200), '') as professione,
             case when a.ruolo = 'cliente' then ${band} end as volume_mensile_atteso_eur,
             case when a.ruolo = 'cliente' then ${cash} end as uso_contanti_atteso
        from anagrafe a left join onboarding_cases c on c.cod_azienda = a.cod_azienda and c.id = a.onboarding_case_id
       where a.stato <> 'eliminato' and a.onboarding_case_id is not null
    ), filled as (
      select * from s
       where data_onboarding is not null or professione is not null or volume_mensile_atteso_eur is not null or uso_contanti_atteso is not null
    ), changed as (
      update anagrafe a
         set data_onboarding = s.data_onboarding, professione = s.professione, volume_mensile_atteso_eur = s.volume_mensile_atteso_eur,
             uso_contanti_atteso = s.uso_contanti_atteso, versione = a.versione + 1, updated_at = now(), updated_by = '${ACTOR}'
        from filled s
       where a.cod_azienda = s.cod_azienda and a.cod_anagrafe = s.cod_anagrafe
      returning a.cod_azienda, a.cod_anagrafe, a.versione, a.updated_at
    )
    insert into anagrafe_versioni (cod_azienda, cod_anagrafe, versione, operazione, changed_at, changed_by, campi, snapshot)
    select ch.cod_azienda, ch.cod_anagrafe, ch.versione, 'update', ch.updated_at, '${ACTOR}',
           ${changes((n) => `jsonb_build_object('old', null, 'new', ${json(n)})`)},
           coalesce(prev.snapshot, '{}'::jsonb) || ${changes(json)}
             || jsonb_build_object('versione', ch.versione, 'updated_at', ch.updated_at, 'updated_by', '${ACTOR}')
      from changed ch
      join filled s on s.cod_azienda = ch.cod_azienda and s.cod_anagrafe = ch.cod_anagrafe
      left join anagrafe_versioni prev on prev.cod_azienda = ch.cod_azienda and prev.cod_anagrafe = ch.cod_anagrafe and prev.versione = ch.versione - 1`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("select set_config('app.scope', 'platform', true)");
  // The versions this migration wrote go; the fields leave every other version's changes and snapshot.
  await knex.raw(`delete from anagrafe_versioni where changed_by = ? and operazione = 'update'
    and not exists (select 1 from jsonb_object_keys(campi) k where k <> all(?::text[]))`, [ACTOR, FIELDS]);
  await knex.raw('update anagrafe_versioni set campi = campi - ?::text[], snapshot = snapshot - ?::text[]', [FIELDS, FIELDS]);
  await knex.raw(`update anagrafe a set versione = v.versione
    from (select cod_azienda, cod_anagrafe, max(versione) as versione from anagrafe_versioni group by 1, 2) v
   where v.cod_azienda = a.cod_azienda and v.cod_anagrafe = a.cod_anagrafe and a.versione > v.versione`);
  await knex.raw('drop index if exists anagrafe_codice_esterno');
  await knex.schema.alterTable('anagrafe', (t) => {
    for (const f of FIELDS) t.dropColumn(f);
  });
}
