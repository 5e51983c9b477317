import type { Knex } from 'knex';
import { assertReferencesInTenant } from '../../db/references';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { getSetting } from '../admin';
import { appendAudit, CHAIN_ORDER } from '../audit';
import { allowedActions } from '../../../workflows/lib/machine';
import { matchMachine, type MatchAction, type MatchEsito, type MatchStatus } from '../../../workflows/screening/screening.machine';
import { subjectKey, type SubjectRow } from './screening.engine';
import { getEntry } from './screening.store';
import type { ListMatchesQuery } from './screening.schemas';
import { isUuid } from '../../kit/ids';
import { staffActor } from '../../kit/actor';
import { decideInTransaction } from '../../kit/process';
import { runList, tenantScope } from '../../kit/list';
import { matchesList } from './screening.lists';

/** Screening matches: a table process (no workflow each); the machine decides every change. */

export interface MatchRow {
  id: string;
  cod_azienda: string;
  subject_id: string;
  list_name: string;
  entry_id: string;
  entry_hash: string;
  score: number;
  breakdown: Record<string, unknown>;
  stato: MatchStatus;
  assegnatario: string | null;
  esito_richiesto: string | null;
  resolution_reason: string | null;
  resolution_requested_by: string | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  subject_nome?: string;
  subject_tipo?: string;
  cod_anagrafe?: string | null;
}

const tx = <T>(deps: Deps, codAzienda: string, user: SessionUser, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

/** The review list (src/kit/list): keyset pages and a capped count, the tenant predicate explicit; `assegnatario=me` is `me`. */
export async function listMatches(trx: Knex.Transaction, codAzienda: string, q: ListMatchesQuery, me: string) {
  const req: ListMatchesQuery = { ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario };
  const page = await runList<MatchRow>(trx, matchesList, tenantScope(codAzienda), req);
  return { ...page, items: page.items.map((m) => ({ ...m, score: Number(m.score) })) };
}

export async function getMatch(trx: Knex.Transaction, id: string, forUpdate = false): Promise<MatchRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = trx('screening_matches').where({ id }).whereNull('deleted_at').first();
  return (forUpdate ? q.forUpdate() : q) as Promise<MatchRow | undefined>;
}

/** What this user may do now, in the API's words: risolvi, or conferma once a resolution is pending. */
export function allowedFor(row: MatchRow, user: SessionUser, fourEyes: boolean): MatchAction[] {
  const pending = !!row.resolution_requested_by;
  return allowedActions(matchMachine, row.stato, staffActor(user), { ...row })
    .filter((a) => (a === 'conferma' ? fourEyes && pending : a === 'risolvi' ? !pending : true));
}

export async function matchDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return tx(deps, codAzienda, user, async (trx) => {
    const row = await getMatch(trx, id);
    if (!row) throw notFound('Corrispondenza');
    // One query at a time: a transaction is one connection.
    const subject = await trx('screening_subjects').where({ id: row.subject_id }).first() as SubjectRow;
    const entry = await getEntry(trx, row.list_name, row.entry_id);
    const audit = await trx('audit_events').where({ entity_type: 'screening_match', entity_id: id }).orderByRaw(CHAIN_ORDER).select('seq', 'action', 'actor', 'occurred_at', 'data');
    const fourEyes = await getSetting(trx, 'screening.four_eyes', codAzienda);
    return {
      ...row, score: Number(row.score), subject, entry: entry ?? null, audit,
      four_eyes: !!fourEyes, allowed_actions: allowedFor(row, user, !!fourEyes),
    };
  });
}

/** The match machine decided on the locked row, in the caller's transaction (a table process: nothing waits). */
function check(row: MatchRow, action: MatchAction, user: SessionUser, input: Record<string, unknown>) {
  return decideInTransaction(matchMachine, {
    state: row.stato, action, actor: staffActor(user), record: { ...row }, input,
    messages: { FOUR_EYES_REQUIRED: 'La risoluzione deve essere confermata da un utente diverso da chi l\'ha richiesta' },
  });
}

async function assign(trx: Knex.Transaction, codAzienda: string, user: SessionUser, row: MatchRow, assegnatario: string) {
  check(row, 'assegna', user, { assegnatario });
  await assertReferencesInTenant(trx, codAzienda, { assegnatario: { kind: 'utente', value: assegnatario } });
  await trx('screening_matches').where({ id: row.id }).update({ stato: 'assigned', assegnatario, updated_at: new Date() });
  await appendAudit(trx, { codAzienda, actor: user.username, action: 'screening.match.assegna', entityType: 'screening_match', entityId: row.id, data: { from: row.stato, to: 'assigned', assegnatario } });
}

export async function assignMatch(deps: Deps, codAzienda: string, user: SessionUser, id: string, assegnatario: string) {
  await tx(deps, codAzienda, user, async (trx) => {
    const row = await getMatch(trx, id, true);
    if (!row) throw notFound('Corrispondenza');
    await assign(trx, codAzienda, user, row, assegnatario);
  });
  return matchDetail(deps, codAzienda, user, id);
}

/**
 * risolvi. With the tenant's four-eyes setting on, the first call records the request and a
 * different user's call confirms it (same esito); a false positive is remembered as a
 * suppression. `autoAssign` serves the legacy hits API, whose hits go open -> resolved.
 */
export async function resolveMatch(deps: Deps, codAzienda: string, user: SessionUser, id: string, body: { esito: MatchEsito; motivazione: string }, opts: { autoAssign?: boolean } = {}) {
  await tx(deps, codAzienda, user, async (trx) => {
    let row = await getMatch(trx, id, true);
    if (!row) throw notFound('Corrispondenza');
    if (opts.autoAssign && row.stato === 'open') {
      await assign(trx, codAzienda, user, row, user.cod_utente);
      row = (await getMatch(trx, id))!;
    }
    const fourEyes = !!(await getSetting(trx, 'screening.four_eyes', codAzienda));
    const pending = fourEyes && !!row.resolution_requested_by;
    const input = { esito: body.esito, motivazione: body.motivazione };
    const now = new Date();
    if (!pending) {
      check(row, 'risolvi', user, input);
      if (fourEyes) {
        await trx('screening_matches').where({ id }).update({ esito_richiesto: body.esito, resolution_reason: body.motivazione, resolution_requested_by: user.cod_utente, updated_at: now });
        await appendAudit(trx, { codAzienda, actor: user.username, action: 'screening.match.risolvi_richiesta', entityType: 'screening_match', entityId: id, data: { esito: body.esito, motivazione: body.motivazione } });
        return;
      }
    } else {
      check(row, 'conferma', user, input);
      if (row.esito_richiesto !== body.esito) {
        throw conflict('ESITO_DIFFERENTE', `La risoluzione richiesta indica "${row.esito_richiesto}": la conferma deve riportare lo stesso esito`, { esito_richiesto: row.esito_richiesto });
      }
    }
    await trx('screening_matches').where({ id }).update({
      stato: body.esito, resolved_by: user.cod_utente, resolved_at: now, updated_at: now,
      resolution_reason: pending ? row.resolution_reason : body.motivazione, esito_richiesto: body.esito,
    });
    if (body.esito === 'false_positive') {
      const subject = await trx('screening_subjects').where({ id: row.subject_id }).first() as SubjectRow;
      await trx('screening_suppressions').insert({
        cod_azienda: codAzienda, subject_key: subjectKey(subject), list_name: row.list_name, entry_id: row.entry_id, entry_hash: row.entry_hash,
        match_id: id, created_by: user.username,
      }).onConflict(['cod_azienda', 'subject_key', 'list_name', 'entry_id', 'entry_hash']).ignore();
    }
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'screening.match.risolvi', entityType: 'screening_match', entityId: id,
      data: { from: row.stato, to: body.esito, motivazione: body.motivazione, ...(pending ? { requested_by: row.resolution_requested_by } : {}) },
    });
  });
  return matchDetail(deps, codAzienda, user, id);
}

/** Soft delete: the row stays (and keeps blocking the same pair); lists and detail no longer show it. */
export async function deleteMatch(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  await tx(deps, codAzienda, user, async (trx) => {
    const row = await getMatch(trx, id, true);
    if (!row) throw notFound('Corrispondenza');
    await trx('screening_matches').where({ id }).update({ deleted_at: new Date(), deleted_by: user.username });
    await appendAudit(trx, { codAzienda, actor: user.username, action: 'screening.match.elimina', entityType: 'screening_match', entityId: id, data: { stato: row.stato } });
  });
}

export async function dashboard(trx: Knex.Transaction) {
  const byState = await trx('screening_matches').whereNull('deleted_at').groupBy('stato').select('stato').count<{ stato: string; n: string }[]>({ n: '*' });
  const byList = await trx('screening_matches').whereNull('deleted_at').groupBy('list_name').select('list_name').count<{ list_name: string; n: string }[]>({ n: '*' }).orderBy('list_name');
  const lastImport = await trx('screening_import_runs').orderBy('started_at', 'desc').first();
  const lists = await trx.raw('select distinct on (list_name) list_name, id, entry_count, imported_at from screening_list_versions order by list_name, id desc');
  const counts = Object.fromEntries(['open', 'assigned', 'true_match', 'false_positive'].map((s) => [s, 0])) as Record<string, number>;
  for (const r of byState) counts[r.stato] = Number(r.n);
  return {
    by_state: counts,
    by_list: byList.map((r) => ({ list_name: r.list_name, count: Number(r.n) })),
    last_import: lastImport ?? null,
    lists: (lists.rows as { list_name: string; id: string; entry_count: number; imported_at: Date }[]).map((l) => ({ ...l, id: Number(l.id) })),
  };
}
