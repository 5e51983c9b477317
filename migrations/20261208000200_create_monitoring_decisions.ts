import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';
import { assertRoleName, GUARD_SCHEMA } from '../src/db/tenant-guard';

/**
 * Monitoring decisions (docs/monitoring.md, "Decisions"): one row per evaluation of one event (a
 * movement or a KYT event, in real time or by the daily batch) or of one customer's closed day.
 * Real time writes thousands a second at full load, so the table is built like movimenti:
 *
 * - Range-partitioned by month on `giorno` (the event's day, or the closed day), partitions in the
 *   schema `monitoring_partizioni` (no USAGE for the application roles: through the parent the
 *   tenant policy holds), made on demand by `monitoring_decisioni_ensure_partitions(days)`
 *   (SECURITY DEFINER, catalogue first, advisory lock, ATTACH). A month can be detached whole.
 * - The code carries the day (`DEC-YYYYMMDD-…`): a lookup by code reads one partition. A
 *   movement's decision is looked up by the movement's id and day: one partition too.
 * - Compact storage: every rule's outcome in one jsonb array with short keys (decisions.codec.ts),
 *   no per-rule rows; no foreign keys (each costs a lookup per insert; the codes are checked by
 *   the evaluation that writes them).
 * - Idempotent: one event decision per event (partial unique index on the event) and one daily
 *   decision per customer and day, so the daily batch re-run after real time adds nothing.
 */
const PARTITION_SCHEMA = 'monitoring_partizioni';
const FIRST_MONTH = '2000-01-01';
const END_MONTH = '2100-01-01';

const ENSURE_PARTITIONS = `
create or replace function public.monitoring_decisioni_ensure_partitions(giorni date[]) returns integer
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
      raise exception 'giorno % is outside the months decisions can hold', mese using errcode = '22008';
    end if;
    nome := 'monitoring_decisioni_' || to_char(mese, 'YYYY_MM');
    if not exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = '${PARTITION_SCHEMA}' and c.relname = nome) then
      perform pg_advisory_xact_lock(hashtext('cp:monitoring-decisioni-partizioni'));
      if not exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                      where n.nspname = '${PARTITION_SCHEMA}' and c.relname = nome) then
        execute format('create table ${PARTITION_SCHEMA}.%I (like public.monitoring_decisioni including defaults including constraints)', nome);
        execute format('alter table ${PARTITION_SCHEMA}.%I enable row level security', nome);
        execute format('alter table public.monitoring_decisioni attach partition ${PARTITION_SCHEMA}.%I for values from (%L) to (%L)',
                       nome, mese, (mese + interval '1 month')::date);
        creati := creati + 1;
      end if;
    end if;
    execute format('lock table ${PARTITION_SCHEMA}.%I in access share mode', nome);
  end loop;
  return creati;
end
$$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create schema ${PARTITION_SCHEMA}`);
  await knex.raw(`revoke all on schema ${PARTITION_SCHEMA} from public`);
  await knex.raw(`
    create table monitoring_decisioni (
      id uuid not null,
      cod_azienda text not null,
      cod_decisione text not null constraint monitoring_decisioni_codice check (cod_decisione ~ '^DEC-[0-9]{8}-[0-9A-Z]{10,16}$'),
      giorno date not null,
      tipo text not null constraint monitoring_decisioni_tipo check (tipo in ('evento', 'giornaliera')),
      -- What the event is: a movement (movimenti.id) or a KYT event (kyt_eventi.id); null for a closed day.
      fonte_evento text constraint monitoring_decisioni_fonte check (fonte_evento in ('movimento', 'kyt')),
      evento_id uuid,
      cod_anagrafe text not null,
      esito text not null constraint monitoring_decisioni_esito check (esito in ('nessuna_anomalia', 'alert', 'blocco')),
      punteggio integer not null constraint monitoring_decisioni_punteggio check (punteggio >= 0),
      -- Every rule's outcome and what it read, compact (src/domains/monitoring/evaluation/decisions.codec.ts).
      regole jsonb not null constraint monitoring_decisioni_regole check (jsonb_typeof(regole) = 'array'),
      versioni_regole jsonb not null default '{}',
      versioni_liste jsonb not null default '{}',
      -- The alerts it raised or added to: [{ id, cod_alert, esito }].
      alert jsonb not null default '[]',
      origine text not null constraint monitoring_decisioni_origine check (origine in ('tempo_reale', 'giornaliero')),
      motore text not null,
      durata_ms real not null constraint monitoring_decisioni_durata check (durata_ms >= 0),
      created_at timestamptz not null default now(),
      constraint monitoring_decisioni_evento check ((tipo = 'evento') = (evento_id is not null and fonte_evento is not null)),
      constraint monitoring_decisioni_giorno check (giorno >= date '${FIRST_MONTH}' and giorno < date '${END_MONTH}'),
      constraint monitoring_decisioni_pkey primary key (id, giorno)
    ) partition by range (giorno)`);
  await knex.raw('create unique index monitoring_decisioni_cod on monitoring_decisioni (cod_azienda, cod_decisione, giorno)');
  await knex.raw("create unique index monitoring_decisioni_un_evento on monitoring_decisioni (cod_azienda, evento_id, giorno) where tipo = 'evento'");
  await knex.raw("create unique index monitoring_decisioni_un_giorno on monitoring_decisioni (cod_azienda, cod_anagrafe, giorno) where tipo = 'giornaliera'");
  // A customer's decisions (the customer file, the daily batch's pending events).
  await knex.raw('create index monitoring_decisioni_cliente on monitoring_decisioni (cod_azienda, cod_anagrafe, giorno, id)');
  await enableTenantRls(knex, 'monitoring_decisioni');
  // The alert a KYT decision added a hit to (POST /api/kyt/alerts/:codDecisione/escalate).
  await knex.raw('create index monitoring_alert_riscontri_decisione on monitoring_alert_riscontri (cod_azienda, cod_decisione) where cod_decisione is not null');

  await knex.raw(ENSURE_PARTITIONS);
  const { rows: [roles] } = await knex.raw<{ rows: { app_role: string; platform_role: string }[] }>(
    `select app_role, platform_role from ${GUARD_SCHEMA}.config where id = 1`);
  if (!roles) throw new Error('the tenant guard is missing: migrate through prepareDatabase');
  await knex.raw('revoke all on function public.monitoring_decisioni_ensure_partitions(date[]) from public');
  await knex.raw(`grant execute on function public.monitoring_decisioni_ensure_partitions(date[]) to ${assertRoleName(roles.app_role)}, ${assertRoleName(roles.platform_role)}`);
  await knex.raw(`select monitoring_decisioni_ensure_partitions(array(
    select generate_series(date_trunc('year', current_date) - interval '2 years', date_trunc('month', current_date) + interval '12 months', interval '1 month')::date))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists monitoring_alert_riscontri_decisione');
  await knex.raw('drop function if exists public.monitoring_decisioni_ensure_partitions(date[])');
  await disableTenantRls(knex, 'monitoring_decisioni');
  await knex.raw('drop table monitoring_decisioni');
  await knex.raw(`drop schema ${PARTITION_SCHEMA} cascade`);
}
