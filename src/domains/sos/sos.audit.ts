import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { canonicalJson } from '../../lib/canonical-json';

const GENESIS_HASH = '0'.repeat(64);

/**
 * The SOS audit trail (docs/sos.md, "Audit"): one hash chain per report in `sos_audit`, under
 * the report's own tipping-off policy, so the tenant's audit chain (read by auditors and
 * admins) holds no trace of a report. Every write and every read of a report appends here, in
 * the caller's transaction. A per-report advisory lock orders the appends; the table refuses
 * updates and deletes.
 */
export const SOS_AUDIT_ACTIONS = {
  'sos.create': 'Segnalazione creata',
  'sos.submit': 'Segnalazione inviata al delegato',
  'sos.evaluate': 'Valutazione avviata',
  'sos.archive': 'Segnalazione archiviata',
  'sos.to_transmit': 'Segnalazione da trasmettere',
  'sos.complete-transmission': 'Trasmissione alla UIF registrata',
  'sos.close': 'Segnalazione chiusa',
  'sos.escalate': 'Termine di valutazione scaduto: segnalata al responsabile',
  'sos.read': 'Segnalazione consultata',
  'sos.export': 'Segnalazione esportata',
  'sos.content': 'Contenuto aggiornato',
  'sos.attachment': 'Allegato aggiunto',
  'sos.communication': 'Comunicazione UIF registrata',
  // Through the document spine (docs/document-spine.md): the tenant's chain never names an SOS document.
  'sos.document.download': 'Allegato scaricato dall\'indice dei documenti',
  'sos.document.hold': 'Blocco legale applicato a un allegato',
  'sos.document.release': 'Blocco legale rimosso da un allegato',
  'sos.filing': 'Filing goAML creato dalla segnalazione',
  'sos.filing.event': 'Passaggio del filing goAML della segnalazione',
} as const;
export type SosAuditAction = keyof typeof SOS_AUDIT_ACTIONS;

export interface SosAuditRow { id: string; sos_id: string; seq: number; actor: string; action: string; data: Record<string, unknown>; prev_hash: string; hash: string; created_at: Date }

const hashOf = (e: Omit<SosAuditRow, 'id' | 'hash'>) =>
  createHash('sha256').update(e.prev_hash).update('\n').update(canonicalJson({
    sos_id: e.sos_id, seq: e.seq, actor: e.actor, action: e.action, data: e.data, created_at: new Date(e.created_at).toISOString(),
  })).digest('hex');

export async function appendSosAudit(trx: Knex.Transaction, e: { codAzienda: string; sosId: string; actor: string; action: SosAuditAction; data?: Record<string, unknown> }): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`sos-audit:${e.sosId}`]);
  const head = await trx('sos_audit').where({ sos_id: e.sosId }).orderBy('seq', 'desc').first('seq', 'hash') as { seq: number; hash: string } | undefined;
  const row = {
    sos_id: e.sosId, seq: Number(head?.seq ?? 0) + 1, actor: e.actor, action: e.action, data: e.data ?? {},
    prev_hash: head?.hash ?? GENESIS_HASH, created_at: new Date(Date.now()),
  };
  await trx('sos_audit').insert({ id: randomUUID(), cod_azienda: e.codAzienda, ...row, hash: hashOf(row) });
}

export async function sosAuditTrail(trx: Knex.Transaction, sosId: string): Promise<SosAuditRow[]> {
  return trx('sos_audit').where({ sos_id: sosId }).orderBy('seq').select('id', 'sos_id', 'seq', 'actor', 'action', 'data', 'prev_hash', 'hash', 'created_at');
}

/** Whether the report's chain is intact: each event's hash and link recomputed. */
export function verifySosAudit(rows: readonly SosAuditRow[]): { ok: boolean; brokenAt: number | null } {
  let prev = GENESIS_HASH;
  for (const r of rows) {
    if (r.prev_hash !== prev || hashOf({ ...r, seq: Number(r.seq) }) !== r.hash) return { ok: false, brokenAt: Number(r.seq) };
    prev = r.hash;
  }
  return { ok: true, brokenAt: null };
}
