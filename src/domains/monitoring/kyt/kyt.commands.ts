import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { Deps } from '../../../deps';
import { ValidationError, type FieldError } from '../../../http/errors';
import { EVALUATION_DEADLINE_MS, PENDING_UNAVAILABLE, type RecordDecision } from '../../../kit/evaluators';
import { appendAudit } from '../../audit';
import { findDecision, type DecisionRecord } from '../evaluation/decisions.repo';
import { replyDecision } from '../evaluation/movement-evaluator';
import { evaluateInOwnTransaction } from '../evaluation/realtime';
import { addressHolders, namedCustomers, resolveEvent, romeDayTime, type Resolution } from './kyt.resolve';
import type { KytEventInput } from './kyt.schemas';

/**
 * POST /api/kyt/events: the events recorded in one tenant transaction (all or nothing: an event
 * whose customer cannot be told is a 422 naming it), idempotent on chain, hash and direction; then,
 * after the commit, evaluated like a movement and answered with the decision. An evaluation that
 * fails or is late leaves the events recorded and their decision pending (the daily batch).
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

/** Evaluates the new events in a transaction of their own, bounded in time; null when it failed or was late. */
async function evaluateNew(deps: Deps, codAzienda: string, actor: string, rows: readonly KytEventRow[]): Promise<Map<string, RecordDecision> | null> {
  if (!rows.length) return new Map();
  // The decision's insert names it on each event's row, in the evaluation's transaction.
  const run = evaluateInOwnTransaction(deps.db, codAzienda, actor, rows.map((r) => ({ fonte: 'kyt' as const, id: r.id, cod_anagrafe: r.cod_anagrafe, giorno: r.giorno })), { decisionActor: 'sistema:kyt' })
    .then((decided) => new Map([...decided].map(([id, s]) => [id, replyDecision(s)]))).catch((err: unknown) => { deps.logger.warn({ err, codAzienda }, 'KYT evaluation failed: decisions pending'); return null; });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), EVALUATION_DEADLINE_MS); });
  try {
    return await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function submitKytEvents(deps: Deps, codAzienda: string, actor: string, eventi: readonly KytEventInput[]) {
  const items = await withTenant(deps.db, { codAzienda, actor }, (trx) => recordKytEvents(trx, codAzienda, actor, eventi));
  const decisions = await evaluateNew(deps, codAzienda, actor, items.filter((x) => x.nuovo).map((x) => x.row));
  // An event recorded before answers with its decision (or pending, when it has none yet).
  const earlier = items.filter((x) => !x.nuovo && x.row.cod_decisione);
  const before = earlier.length
    ? await withTenant(deps.db, { codAzienda, actor }, async (trx) => {
      // One query at a time: a transaction is one connection.
      const found = new Map<string, DecisionRecord | undefined>();
      for (const x of earlier) found.set(x.row.id, await findDecision(trx, codAzienda, x.row.cod_decisione!));
      return found;
    })
    : new Map<string, DecisionRecord | undefined>();
  const pending: RecordDecision = { stato: 'in_attesa', motivo: PENDING_UNAVAILABLE };
  return {
    inseriti: items.filter((x) => x.nuovo).length,
    gia_presenti: items.filter((x) => !x.nuovo).length,
    eventi: items.map((x, indice) => {
      let decisione: RecordDecision = pending;
      const made = decisions?.get(x.row.id);
      const old = before.get(x.row.id);
      if (made) decisione = made;
      else if (old) decisione = { stato: 'valutata', cod_decisione: old.cod_decisione, esito: old.esito, punteggio: old.punteggio, regole_attivate: old.regole.filter((r) => r.vero).map((r) => r.cod_regola), alert: old.alert };
      const evento = made ? { ...x.row, cod_decisione: made.stato === 'valutata' ? made.cod_decisione : null } : x.row;
      return { indice, esito: x.nuovo ? 'inserito' as const : 'gia_presente' as const, evento, decisione };
    }),
  };
}
