import type { Knex } from 'knex';
import { disableTenantRls, enableTenantRls } from '../src/db/rls';

/**
 * The freshness stamp of what real time keeps in memory per tenant (docs/monitoring.md, "Real
 * time"): the rule versions in force, the named lists, the peer medians. One small row per
 * tenant, its number raised by triggers in the same transaction as every change of those tables
 * (a rule or version written, activated, retired or deleted; a list's head moved to a new
 * version; peer medians stored), so no writer can forget it. A web process compares the number
 * with the one its cache was built under, in the first statement of the evaluation's
 * transaction: a rule activated in one process is in force at the next evaluation of every other.
 *
 * The triggers run as the writer and under its tenant: the row they touch is the tenant's own,
 * which the writer's change has just passed the same policy for.
 */
const TRACKED = ['monitoring_regole', 'monitoring_regole_versioni', 'liste_riferimento', 'monitoring_statistiche_pari'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table monitoring_contesto_versione (
      cod_azienda text primary key references aziende(cod_azienda),
      versione bigint not null default 0
    )`);
  await enableTenantRls(knex, 'monitoring_contesto_versione');
  await knex.raw(`
    create or replace function monitoring_contesto_modificato() returns trigger language plpgsql as $$
    declare
      tenant text := case when tg_op = 'DELETE' then old.cod_azienda else new.cod_azienda end;
    begin
      insert into monitoring_contesto_versione as v (cod_azienda, versione) values (tenant, 1)
        on conflict (cod_azienda) do update set versione = v.versione + 1;
      return null;
    end
    $$`);
  for (const table of TRACKED) {
    await knex.raw(`create trigger ?? after insert or update or delete on ?? for each row execute function monitoring_contesto_modificato()`,
      [`${table}_contesto`, table]);
  }
  // Volatile and plpgsql: evaluated when its turn in a select list comes (after the tenant's set_config), never folded early.
  await knex.raw(`
    create or replace function monitoring_contesto_stamp(tenant text) returns bigint language plpgsql volatile as $$
    begin
      return coalesce((select versione from monitoring_contesto_versione where cod_azienda = tenant), 0);
    end
    $$`);
  await knex.raw(HISTORY_FUNCTION);
}

/**
 * A customers' history for real time (evaluation/store.platform.ts, `histories`): their movements
 * and KYT events in [dal, al]. A function so its plan is kept per connection and generic (the
 * function's own plan_cache_mode): planning the query over the monthly partitions of movimenti
 * cost more than running it (EXPLAIN: 3.4 ms planning, 1.6 ms execution for 13 months of one
 * customer); the generic plan prunes the months when it starts. Runs as the caller: row-level
 * security applies as to the query it replaces.
 */
const HISTORY_FUNCTION = `
  create or replace function monitoring_storico(tenant text, clienti text[], dal date, al date)
  returns table (fonte text, id uuid, cod_anagrafe text, cod_rapporto text, giorno text, ora text, importo_eur float8, segno text, contanti boolean,
                 causale text, canale text, controparte_nome text, controparte_conto text, controparte_paese text, cod_anagrafe_esecutore text,
                 chain text, hash text, indirizzo_da text, indirizzo_a text, asset text)
  language plpgsql stable
  set plan_cache_mode = force_generic_plan
  as $$
  begin
    return query
      select 'm'::text, m.id, m.cod_anagrafe, m.cod_rapporto, m.data_operazione::text, m.ora_operazione::text, m.importo_eur::float8, m.segno, m.contanti,
             m.causale, m.canale, m.controparte_nome, m.controparte_conto, m.controparte_paese, m.cod_anagrafe_esecutore,
             null::text, null::text, null::text, null::text, null::text
        from movimenti m
       where m.cod_azienda = tenant and m.cod_anagrafe = any(clienti) and m.data_operazione >= dal and m.data_operazione <= al
      union all
      select 'k'::text, k.id, k.cod_anagrafe, null::text, k.giorno::text, k.ora, k.importo_eur::float8, k.direzione, null::boolean,
             null::text, null::text, null::text, null::text, null::text, null::text,
             k.chain, k.hash, k.indirizzo_da, k.indirizzo_a, k.asset
        from kyt_eventi k
       where k.cod_azienda = tenant and k.cod_anagrafe = any(clienti) and k.giorno >= dal and k.giorno <= al;
  end
  $$`;

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists monitoring_storico(text, text[], date, date)');
  await knex.raw('drop function if exists monitoring_contesto_stamp(text)');
  for (const table of TRACKED) await knex.raw('drop trigger if exists ?? on ??', [`${table}_contesto`, table]);
  await knex.raw('drop function if exists monitoring_contesto_modificato()');
  await disableTenantRls(knex, 'monitoring_contesto_versione');
  await knex.raw('drop table monitoring_contesto_versione');
}
