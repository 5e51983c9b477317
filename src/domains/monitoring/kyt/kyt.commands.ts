import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { Deps } from '../../../deps';
import { ValidationError, type FieldError } from '../../../http/errors';
import { evaluateUnderSavepoint, PENDING_UNAVAILABLE, type RecordDecision } from '../../../kit/evaluators';
import { appendAudit } from '../../audit';
import { findDecisions, type DecisionRecord } from '../evaluation/decisions.repo';
import { replyDecision } from '../evaluation/movement-evaluator';
import { evaluateInTransaction } from '../evaluation/realtime';
import { addressHolders, namedCustomers, resolveEvent, romeDayTime, type Resolution } from './kyt.resolve';
import type { KytEventInput } from './kyt.schemas';

/**
 * POST /api/kyt/events: the events recorded in one tenant transaction (all or nothing: an event
 * whose customer cannot be told is a 422 naming it), idempotent on chain, hash and direction, and
 * evaluated like a movement in the same transaction under a savepoint (src/kit/evaluators.ts):
 * the events and their decisions commit together, answered with the decision. An evaluation that
 * fails or is late rolls back to the savepoint: the events are recorded and their decision is
 * pending (the daily batch).
 */

export interface KytEventRow {
  id: string; cod_evento: string; cod_azienda: string; chain: string; hash: string; direzione: 'entrata' | 'uscita'; indirizzo_da: string;
  indirizzo_a: string; asset: string; importo: string; importo_eur: number; data_ora: Date; giorno: string; ora: string; cod_anagrafe: string;
  risolto_da: Resolution['risolto_da']; cod_decisione: string | null; created_by: string; created_at: Date;
}

export const KYT_COLUMNS = (trx: Knex | Knex.Transaction) => [
  'id', 'cod_evento', 'cod_azienda', 'chain', 'hash', 'direzione', 'indirizzo_da', 'indirizzo_a', 'asset', trx.raw('importo::text as importo'),
  trx.raw('importo_eur::float8 as importo_eur'), 'data_ora', trx.raw('giorno::text as giorno'), 'ora', 'cod_anagrafe', 'risolto_da', 'cod_decisione',
  'created_by', 'created_at',
];

/** KYT_COLUMNS as a RETURNING list. */
const KYT_RETURNING = `id, cod_evento, cod_azienda, chain, hash, direzione, indirizzo_da, indirizzo_a, asset, importo::text as importo,
  importo_eur::float8 as importo_eur, data_ora, giorno::text as giorno, ora, cod_anagrafe, risolto_da, cod_decisione, created_by, created_at`;

/** Records the events in the caller's transaction (idempotent on chain, hash and direction); evaluation is the caller's (real time, or a later replay). */
export async function recordKytEvents(trx: Knex.Transaction, codAzienda: string, actor: string, eventi: readonly KytEventInput[]) {
  const holders = await addressHolders(trx, codAzienda, eventi.flatMap((e) => [e.indirizzo_da, e.indirizzo_a]));
  const named = await namedCustomers(trx, codAzienda, eventi);
  const errors: FieldError[] = [];
  const resolved = eventi.map((e, i) => {
    const r = resolveEvent(e, holders, named);
    if (!r.ok) { errors.push(...r.errors.map((x) => ({ path: `eventi.${i}.${x.path}`, message: x.message }))); return undefined; }
    return r.value;
  });
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);

  const rows = eventi.map((e, i) => {
    const r = resolved[i]!;
    const { giorno, ora } = romeDayTime(e.data_ora);
    return {
      id: randomUUID(), cod_azienda: codAzienda, chain: e.chain, hash: e.hash, direzione: r.direzione, indirizzo_da: e.indirizzo_da, indirizzo_a: e.indirizzo_a,
      asset: e.asset, importo: e.importo, importo_eur: e.importo_eur.toFixed(2), data_ora: new Date(e.data_ora), giorno, ora, cod_anagrafe: r.cod_anagrafe,
      risolto_da: r.risolto_da, created_by: actor,
    };
  });
  // The new rows come back from the insert; only a transfer and side recorded before is read (the row stored then).
  const { rows: fresh0 } = await trx.raw<{ rows: KytEventRow[] }>(`? on conflict (cod_azienda, chain, hash, direzione) do nothing returning ${KYT_RETURNING}`,
    [trx('kyt_eventi').insert(rows)]);
  const inserted = new Set(fresh0.map((r) => r.id));
  const seen = new Set(fresh0.map((s) => `${s.chain}|${s.hash}|${s.direzione}`));
  const before = rows.filter((r) => !seen.has(`${r.chain}|${r.hash}|${r.direzione}`));
  const stored = before.length
    ? [...fresh0, ...await trx('kyt_eventi').where('cod_azienda', codAzienda)
      .whereIn(['chain', 'hash', 'direzione'], before.map((r) => [r.chain, r.hash, r.direzione])).select(KYT_COLUMNS(trx)) as KytEventRow[]]
    : fresh0;
  const byTransfer = new Map(stored.map((s) => [`${s.chain}|${s.hash}|${s.direzione}`, s]));
  const items = rows.map((r) => ({ row: byTransfer.get(`${r.chain}|${r.hash}|${r.direzione}`)!, nuovo: inserted.has(r.id) }));
  const fresh = items.filter((x) => x.nuovo);
  if (fresh.length) {
    await appendAudit(trx, {
      codAzienda, actor, action: 'monitoring.kyt.events', entityType: 'kyt_evento', entityId: fresh[0]!.row.id,
      data: { inseriti: fresh.length, gia_presenti: items.length - fresh.length, eventi: fresh.slice(0, 20).map((x) => x.row.cod_evento), clienti: [...new Set(fresh.map((x) => x.row.cod_anagrafe))].slice(0, 20) },
    });
  }
  return items;
}

export async function submitKytEvents(deps: Deps, codAzienda: string, actor: string, eventi: readonly KytEventInput[]) {
  return (await submitKytRequests(deps, codAzienda, actor, [eventi]))[0]!;
}

/**
 * Several requests of one tenant and user in one transaction (the group commit of POST
 * /api/kyt/events, src/kit/group-commit.ts): their events recorded and evaluated together, each
 * request answered as if alone. An event whose customer cannot be told fails the whole call (the
 * 422 naming it): the group commit then writes each request on its own, with its own paths.
 */
export async function submitKytRequests(deps: Deps, codAzienda: string, actor: string, requests: readonly (readonly KytEventInput[])[]) {
  const { items, decisions, before } = await withTenant(deps.db, { codAzienda, actor }, async (trx) => {
    const items = await recordKytEvents(trx, codAzienda, actor, requests.flat());
    // An event recorded before answers with its decision (or pending, when it has none yet): one read for all of them.
    const earlier = items.filter((x) => !x.nuovo && x.row.cod_decisione);
    const before = earlier.length
      ? new Map((await findDecisions(trx, codAzienda, earlier.map((x) => x.row.cod_decisione!))).map((d) => [d.cod_decisione, d]))
      : new Map<string, DecisionRecord>();
    const fresh = items.filter((x) => x.nuovo).map((x) => x.row);
    // The decision's insert names it on each event's row, under the savepoint.
    const decisions = fresh.length
      ? await evaluateUnderSavepoint(trx, deps, { codAzienda, eventi: fresh.length }, async (sp, deadline) => new Map([...await evaluateInTransaction(sp, codAzienda,
        fresh.map((r) => ({ fonte: 'kyt' as const, id: r.id, cod_anagrafe: r.cod_anagrafe, giorno: r.giorno })), { deadline, decisionActor: 'sistema:kyt' })]
        .map(([id, d]) => [id, replyDecision(d)])))
      : new Map<string, RecordDecision>();
    return { items, decisions, before };
  });
  const pending: RecordDecision = { stato: 'in_attesa', motivo: PENDING_UNAVAILABLE };
  let from = 0;
  return requests.map((eventi) => {
    const mine = items.slice(from, from += eventi.length);
    return {
      inseriti: mine.filter((x) => x.nuovo).length,
      gia_presenti: mine.filter((x) => !x.nuovo).length,
      eventi: mine.map((x, indice) => {
        let decisione: RecordDecision = pending;
        // The same transfer twice in one call: both answer the decision made for it.
        const made = decisions?.get(x.row.id);
        const old = x.row.cod_decisione ? before.get(x.row.cod_decisione) : undefined;
        if (made) decisione = made;
        else if (old) decisione = { stato: 'valutata', cod_decisione: old.cod_decisione, esito: old.esito, punteggio: old.punteggio, regole_attivate: old.regole.filter((r) => r.vero).map((r) => r.cod_regola), alert: old.alert };
        const evento = made ? { ...x.row, cod_decisione: made.stato === 'valutata' ? made.cod_decisione : null } : x.row;
        return { indice, esito: x.nuovo ? 'inserito' as const : 'gia_presente' as const, evento, decisione };
      }),
    };
  });
}
