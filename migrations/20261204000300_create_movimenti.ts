import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';
import { assertRoleName, GUARD_SCHEMA } from '../src/db/tenant-guard';

/**
 * Movements (movimenti): built for tens of millions of rows (docs/movements.md).
 *
 * - Range-partitioned by month on data_operazione. A date range prunes the partitions a read
 *   touches; a month can later be detached and archived whole (10-year retention).
 * - Partitions live in the schema `movimenti_partizioni`, on which neither the application nor the
 *   platform role has USAGE. PostgreSQL checks privileges and applies row-level security on the
 *   table a query names: through `movimenti` the tenant policy holds, and a partition cannot be
 *   named by those roles at all, so nothing reads around the policy. Each partition also has row
 *   level security enabled without a policy (deny) in case a grant is ever widened.
 * - `movimenti_ensure_partitions(dates)` (SECURITY DEFINER: the roles cannot create tables) makes
 *   the months a write needs; every write calls it first, so no insert fails for a missing month.
 *   It checks the catalogue first (no lock on the hot path), then serialises creators on an
 *   advisory lock, and attaches a table made beforehand: ATTACH takes SHARE UPDATE EXCLUSIVE on
 *   the parent, which neither reads nor inserts wait for (CREATE TABLE ... PARTITION OF would take
 *   ACCESS EXCLUSIVE until the writer's commit). The migration makes the months from January two
 *   years back to twelve months ahead, so the write path rarely creates one.
 * - Idempotency: the external key is unique per tenant through the side table `movimenti_chiavi`
 *   (cod_azienda, chiave_esterna). A unique index on the partitioned table must contain the
 *   partition key, and (cod_azienda, chiave_esterna, data_operazione) would let a movement re-sent
 *   with a corrected date become a second movement. The side table costs one small row per
 *   movement and names the movement holding a key (id and date: one partition to read).
 */
const PARTITION_SCHEMA = 'movimenti_partizioni';
const FIRST_MONTH = '2000-01-01';
const END_MONTH = '2100-01-01';

const ENSURE_PARTITIONS = `
create or replace function public.movimenti_ensure_partitions(giorni date[]) returns integer
  language plpgsql volatile security definer
  set search_path = pg_catalog, pg_temp
as $$
declare
  mese date;
  nome text;
  creati integer := 0;
begin
  for mese in select distinct date_trunc('month', g)::date from unnest(giorni) g where g is not null order by 1 loop
    if mese < date '${FIRST_MONTH}' or mese >= date '${END_MONTH}' then
      raise exception 'data_operazione % is outside the months movements can hold', mese using errcode = '22008';
    end if;
    nome := 'movimenti_' || to_char(mese, 'YYYY_MM');
    -- A plain query sees what other transactions committed (the hot path: no lock at all).
    if not exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = '${PARTITION_SCHEMA}' and c.relname = nome) then
      perform pg_advisory_xact_lock(hashtext('cp:movimenti-partizioni'));
      if not exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                      where n.nspname = '${PARTITION_SCHEMA}' and c.relname = nome) then
        execute format('create table ${PARTITION_SCHEMA}.%I (like public.movimenti including defaults including constraints)', nome);
        execute format('alter table ${PARTITION_SCHEMA}.%I enable row level security', nome);
        execute format('alter table public.movimenti attach partition ${PARTITION_SCHEMA}.%I for values from (%L) to (%L)',
                       nome, mese, (mese + interval '1 month')::date);
        creati := creati + 1;
      end if;
    end if;
    -- A new lock makes this transaction read the invalidations of a partition another one attached
    -- since it first touched movimenti, so its next insert routes rows to it.
    execute format('lock table ${PARTITION_SCHEMA}.%I in access share mode', nome);
  end loop;
  return creati;
end
$$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create schema ${PARTITION_SCHEMA}`);
  await knex.raw(`revoke all on schema ${PARTITION_SCHEMA} from public`);

  await knex.raw(`
    create table movimenti (
      id uuid not null,
      cod_azienda text not null references aziende (cod_azienda),
      cod_rapporto text not null,
      -- The subject the movement is read under (the relationship's holder unless given): denormalised
      -- so the customer file reads one index.
      cod_anagrafe text not null,
      data_operazione date not null,
      data_valuta date,
      importo numeric(18, 2) not null constraint movimenti_importo check (importo > 0),
      valuta char(3) not null default 'EUR' constraint movimenti_valuta check (valuta ~ '^[A-Z]{3}$'),
      -- The euro equivalent: what volumes, thresholds and the amount filter compare.
      importo_eur numeric(18, 2) not null constraint movimenti_importo_eur check (importo_eur > 0),
      segno text not null constraint movimenti_segno check (segno in ('entrata', 'uscita')),
      causale text constraint movimenti_causale check (char_length(causale) <= 200),
      canale text constraint movimenti_canale check (char_length(canale) <= 50),
      contanti boolean not null default false,
      controparte_nome text constraint movimenti_controparte_nome check (char_length(controparte_nome) <= 200),
      controparte_conto text constraint movimenti_controparte_conto check (char_length(controparte_conto) <= 64),
      controparte_paese text constraint movimenti_controparte_paese check (controparte_paese ~ '^[A-Z]{2}$'),
      chiave_esterna text not null constraint movimenti_chiave_esterna check (char_length(chiave_esterna) between 1 and 200),
      -- The import run that loaded it (helper bulk's runs); null for the API.
      import_id uuid,
      created_by text not null,
      created_at timestamptz not null default now(),
      constraint movimenti_eur check (valuta <> 'EUR' or importo_eur = importo),
      constraint movimenti_data_operazione check (data_operazione >= date '${FIRST_MONTH}' and data_operazione < date '${END_MONTH}'),
      constraint movimenti_pkey primary key (id, data_operazione),
      constraint movimenti_rapporto_fk foreign key (cod_azienda, cod_rapporto) references rapporti (cod_azienda, cod_rapporto),
      constraint movimenti_anagrafe_fk foreign key (cod_azienda, cod_anagrafe) references anagrafe (cod_azienda, cod_anagrafe)
    ) partition by range (data_operazione)`);

  // The lists (docs/lists.md): tenant first, then the sort's keys, ending with the tiebreaker;
  // read backwards for the newest first. Declared on the parent, so every partition gets them.
  await knex.raw('create index movimenti_tenant_data on movimenti (cod_azienda, data_operazione, id)');
  await knex.raw('create index movimenti_tenant_anagrafe_data on movimenti (cod_azienda, cod_anagrafe, data_operazione, id)');
  await knex.raw('create index movimenti_tenant_rapporto_data on movimenti (cod_azienda, cod_rapporto, data_operazione, id)');
  // Cash movements are a small share that monitoring reads on its own.
  await knex.raw('create index movimenti_tenant_contanti_data on movimenti (cod_azienda, data_operazione, id) where contanti');
  // The amount sort and the amount range filter.
  await knex.raw('create index movimenti_tenant_importo on movimenti (cod_azienda, importo_eur, id)');

  await enableTenantRls(knex, 'movimenti');

  await knex.raw(`
    create table movimenti_chiavi (
      cod_azienda text not null references aziende (cod_azienda),
      chiave_esterna text not null constraint movimenti_chiavi_chiave check (char_length(chiave_esterna) between 1 and 200),
      -- The movement holding the key (no foreign key: both rows are written by one statement, and a
      -- key into a partitioned table would cost a lookup per row of a bulk load).
      movimento_id uuid not null,
      data_operazione date not null,
      created_at timestamptz not null default now(),
      constraint movimenti_chiavi_pkey primary key (cod_azienda, chiave_esterna)
    )`);
  await enableTenantRls(knex, 'movimenti_chiavi');

  await knex.raw(ENSURE_PARTITIONS);
  const { rows: [roles] } = await knex.raw<{ rows: { app_role: string; platform_role: string }[] }>(
    `select app_role, platform_role from ${GUARD_SCHEMA}.config where id = 1`);
  if (!roles) throw new Error('the tenant guard is missing: migrate through prepareDatabase');
  await knex.raw('revoke all on function public.movimenti_ensure_partitions(date[]) from public');
  await knex.raw(`grant execute on function public.movimenti_ensure_partitions(date[]) to ${assertRoleName(roles.app_role)}, ${assertRoleName(roles.platform_role)}`);

  // The months a deployment writes first: from January two years back to a year ahead.
  await knex.raw(`select movimenti_ensure_partitions(array(
    select generate_series(date_trunc('year', current_date) - interval '2 years', date_trunc('month', current_date) + interval '12 months', interval '1 month')::date))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.movimenti_ensure_partitions(date[])');
  await disableTenantRls(knex, 'movimenti_chiavi');
  await knex.raw('drop table movimenti_chiavi');
  await disableTenantRls(knex, 'movimenti');
  await knex.raw('drop table movimenti');
  await knex.raw(`drop schema ${PARTITION_SCHEMA} cascade`);
}
