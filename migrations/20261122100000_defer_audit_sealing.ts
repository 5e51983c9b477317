import type { Knex } from 'knex';

/**
 * Audit events are inserted by the writer's transaction without a chain lock; a sealer gives
 * them their place in the tenant's chain (seq, prev_hash, hash) shortly after they commit.
 * The event itself stays immutable: the only change ever allowed is writing the seal once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table audit_events alter column seq drop not null, alter column prev_hash drop not null, alter column hash drop not null');
  await knex.raw('alter table audit_events add column sealed_at timestamptz');
  // What the sealer looks for; stays small because sealed rows leave it.
  await knex.raw('create index audit_events_unsealed on audit_events (cod_azienda, id) where seq is null');
  await knex.raw(`
    create or replace function audit_events_immutable() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.seq is null and old.prev_hash is null and old.hash is null
         and new.seq is not null and new.prev_hash is not null and new.hash is not null
         and new.id = old.id and new.cod_azienda = old.cod_azienda and new.occurred_at = old.occurred_at
         and new.actor = old.actor and new.action = old.action and new.entity_type = old.entity_type
         and new.entity_id = old.entity_id and new.data = old.data then
        return new;
      end if;
      raise exception 'audit_events is append-only';
    end $$`);
  // The application role has no UPDATE on audit_events: sealing goes through this one function,
  // which writes seals only onto unsealed events of one chain, continuing that chain's head.
  await knex.raw(`
    create function audit_seal(p_chain text, p_ids bigint[], p_seqs bigint[], p_prev text[], p_hash text[])
    returns integer language plpgsql security definer set search_path = public, pg_temp as $$
    declare
      head_seq bigint;
      head_hash text;
      n integer;
    begin
      if cardinality(p_ids) = 0 then return 0; end if;
      if cardinality(p_seqs) <> cardinality(p_ids) or cardinality(p_prev) <> cardinality(p_ids) or cardinality(p_hash) <> cardinality(p_ids) then
        raise exception 'audit_seal: arrays of different lengths';
      end if;
      select seq, hash into head_seq, head_hash from audit_events where cod_azienda = p_chain and seq is not null order by seq desc limit 1;
      if p_seqs[1] <> coalesce(head_seq, 0) + 1 or p_prev[1] <> coalesce(head_hash, repeat('0', 64)) then
        raise exception 'audit_seal: chain % does not continue from seq %', p_chain, coalesce(head_seq, 0);
      end if;
      update audit_events a set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash, sealed_at = now()
        from unnest(p_ids, p_seqs, p_prev, p_hash) as v(id, seq, prev_hash, hash)
       where a.id = v.id and a.cod_azienda = p_chain and a.seq is null;
      get diagnostics n = row_count;
      if n <> cardinality(p_ids) then
        raise exception 'audit_seal: % of % events of chain % were not unsealed', cardinality(p_ids) - n, cardinality(p_ids), p_chain;
      end if;
      return n;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists audit_seal(text, bigint[], bigint[], text[], text[])');
  await knex.raw(`
    create or replace function audit_events_immutable() returns trigger language plpgsql as $$
    begin raise exception 'audit_events is append-only'; end $$`);
  await knex.raw('drop index if exists audit_events_unsealed');
  await knex.raw('alter table audit_events drop column sealed_at');
  // Fails while unsealed events exist: start the worker once so that it seals them.
  await knex.raw('alter table audit_events alter column seq set not null, alter column prev_hash set not null, alter column hash set not null');
}
