import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { verdictOf } from '../../src/domains/filing/filing.content';
import { FILING_STATO_LABELS, filingTransitionText } from '../../src/domains/filing/filing.labels';
import { filingEsignToken, sha256Hex } from '../../src/domains/filing/filing.tokens';
import { loadJurisdiction } from '../../src/domains/filing/goaml/jurisdiction-loader';
import { notify } from '../../src/domains/notifications';
import { appendSosAudit } from '../../src/domains/sos';
import { messaging, type Messaging } from '../../src/domains/outbox';
import {
  FILING_NOT_FOUND, type FilingActivities, type FilingCheck, type FilingProjection, type FilingRecord,
} from '../../workflows/filing/filing.contract';
import type { ActivityDeps } from '../deps';
import type { MachineActor } from '../../workflows/lib/machine';

const notFound = (id: string) => ApplicationFailure.create({ type: FILING_NOT_FOUND, message: `filing ${id} not found`, nonRetryable: true });
const json = (v: unknown) => JSON.stringify(v);
const CONSENT = { testo: 'Confermo di aver verificato il contenuto della segnalazione e di firmarla per l\'invio alla UIF/FIU.', versione: 'filing-1' };

async function lock(trx: Knex.Transaction, id: string): Promise<FilingRecord> {
  const row = await trx('filings').where({ id }).forUpdate().first();
  if (!row) throw notFound(id);
  return row as FilingRecord;
}

/** The fields a transition writes on the row besides its state. */
function transitionFields(p: FilingProjection, now: Date): Record<string, unknown> {
  const a = p.args;
  switch (p.action) {
    case 'edit': return {
      ...(a.content ? { content: json(a.content), findings: json([]) } : {}),
      ...(a.titolo ? { titolo: a.titolo } : {}), ...(a.periodo !== undefined ? { periodo_riferimento: a.periodo } : {}),
    };
    case 'classify': return {
      tipo: a.tipo, jurisdiction: a.jurisdiction, report_code: a.reportCode, findings: json([]), due_at: p.dueAt,
      ...(a.periodo !== undefined ? { periodo_riferimento: a.periodo } : {}),
    };
    case 'submit-for-approval': return { prepared_by: p.actor.id, reject_reason: null };
    case 'approve': return { approved_by: p.actor.id };
    case 'reject': return { reject_reason: a.reason, prepared_by: null, approved_by: null };
    case 'sign': return { ceremony_id: a.ceremonyId ?? null };
    case 'complete-signing': return { signed_at: now };
    case 'record-submission': return { submission_ref: a.submissionRef };
    case 'import-return': return { fiu_ref_number: a.returnFile?.fiuRefNumber ?? null, return_errors: json(a.returnFile?.errors ?? []) };
    case 'follow-up': return { follow_up_id: a.followUpId ?? null };
    default: return {};
  }
}

/**
 * The filing workflow's side of the database: every write to filings, filing_events and
 * audit_events, one transaction per step, idempotent on the transition id (the event's id).
 */
/** The deadline timer acts as the compliance officer: a reserved filing's deadline is still noticed. */
const FILING_TIMER_PRINCIPAL = { user: 'system:filing-deadline', roles: ['co'] } as const;

export function createFilingActivities(deps: ActivityDeps, m: Messaging = messaging(deps)): FilingActivities {
  const { db } = deps;
  // Under the acting user's principal: a reserved filing (made from an SOS) is visible to `sos` and `co` only.
  const tx = <T>(p: { codAzienda: string; actor: MachineActor }, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username, principal: { user: p.actor.id, roles: p.actor.roles } }, fn);

  /**
   * A filing's audit event. A reserved filing (made from an SOS) is audited in its report's own
   * chain, never in the tenant's, which auditors and admins read (art. 39 d.lgs. 231/2007: no trace
   * of a report outside its allowed roles). Fails closed: a reserved filing whose report this
   * principal cannot see is not audited in the tenant's chain instead.
   */
  async function auditFiling(trx: Knex.Transaction, e: Parameters<typeof appendAudit>[1] & { codAzienda: string; entityId: string }): Promise<void> {
    const filing = await trx('filings').where({ id: e.entityId }).first('riservata') as { riservata: boolean } | undefined;
    const link = await trx('sos_filings').where({ filing_id: e.entityId }).first('sos_id') as { sos_id: string } | undefined;
    if (link) {
      await appendSosAudit(trx, { codAzienda: e.codAzienda, sosId: link.sos_id, actor: e.actor, action: 'sos.filing.event', data: { filing_id: e.entityId, filing_action: e.action, ...(e.data ?? {}) } });
      return;
    }
    if (filing?.riservata) throw ApplicationFailure.create({ type: 'FILING_RESERVED_UNLINKED', message: `reserved filing ${e.entityId} has no report visible to this principal`, nonRetryable: true });
    await appendAudit(trx, e);
  }

  /** Writes the transition's event, row and audit event once; a retry finds its event and answers the row. */
  async function writeTransition(trx: Knex.Transaction, p: FilingProjection, extra: Record<string, unknown> = {}, auditData: Record<string, unknown> = {}): Promise<FilingRecord> {
    await lock(trx, p.filingId);
    const inserted = await trx('filing_events').insert({
      id: p.transitionId, cod_azienda: p.codAzienda, filing_id: p.filingId, tipo: p.action,
      testo: filingTransitionText(p.action, p.to, p.args.reason), actor: p.actor.username,
    }).onConflict('id').ignore().returning('id');
    if (!inserted.length) return (await trx('filings').where({ id: p.filingId }).first()) as FilingRecord;
    const now = new Date();
    const [row] = await trx('filings').where({ id: p.filingId })
      .update({ stato: p.to, ...transitionFields(p, now), ...extra, updated_at: now }).returning('*');
    await auditFiling(trx, {
      codAzienda: p.codAzienda, actor: p.actor.username, action: `filing.${p.action}`, entityType: 'filing', entityId: p.filingId,
      data: {
        from: p.from, to: p.to, transition_id: p.transitionId, ...(p.args.reason ? { reason: p.args.reason } : {}),
        ...(p.args.jurisdiction ? { jurisdiction: p.args.jurisdiction, report_code: p.args.reportCode, tipo: p.args.tipo } : {}),
        ...(p.args.submissionRef ? { submission_ref: p.args.submissionRef } : {}),
        ...(p.args.returnFile ? { outcome: p.args.returnFile.outcome, fiu_ref_number: p.args.returnFile.fiuRefNumber, errors: p.args.returnFile.errors.length, file_sha256: p.args.returnFile.sha256 } : {}),
        ...(p.args.followUpId ? { follow_up_id: p.args.followUpId } : {}),
        ...auditData,
      },
    });
    return row as FilingRecord;
  }

  /** Validates the content for its jurisdiction; the findings are kept either way, the state moves only when there are none. */
  async function check(p: FilingProjection, render: boolean): Promise<FilingCheck> {
    const row = await tx(p, (trx) => trx('filings').where({ id: p.filingId }).first()) as FilingRecord | undefined;
    if (!row) throw notFound(p.filingId);
    if (!row.jurisdiction) return { valid: false, record: row, findings: [{ code: 'FILING_NOT_CLASSIFIED', path: 'jurisdiction', message: 'classify the filing first', source: 'rules' }] };
    const verdict = await verdictOf(row, await loadJurisdiction(deps.config.goamlDataDir, row.jurisdiction));
    return tx(p, async (trx) => {
      if (!verdict.valid) {
        await lock(trx, p.filingId);
        const [kept] = await trx('filings').where({ id: p.filingId }).update({ findings: json(verdict.findings), updated_at: new Date() }).returning('*');
        await auditFiling(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'filing.validation_failed', entityType: 'filing', entityId: p.filingId,
          data: { step: p.action, errors: verdict.findings.length, codes: [...new Set(verdict.findings.map((f) => f.code))] },
        });
        return { valid: false, findings: verdict.findings, record: kept as FilingRecord };
      }
      const extra = render
        ? { findings: json([]), package_xml: verdict.xml, package_sha256: sha256Hex(verdict.xml) }
        : { findings: json([]) };
      const record = await writeTransition(trx, p, extra, render ? { package_sha256: sha256Hex(verdict.xml), schema_version: verdict.schemaVersion } : {});
      return { valid: true, findings: [], record };
    });
  }

  return {
    async createFilingProjection(p) {
      return tx(p, async (trx) => {
        const inserted = await trx('filings').insert({
          id: p.filingId, cod_azienda: p.codAzienda, titolo: p.data.titolo, tipo: p.data.tipo, periodo_riferimento: p.data.periodo_riferimento ?? null,
          stato: 'draft', content: json(p.data.content ?? {}), created_by: p.actor.id, parent_id: p.data.parent_id ?? null,
          due_at: p.dueAt, workflow_id: p.workflowId, cod_anagrafe: p.data.cod_anagrafe ?? null, riservata: p.data.riservata ?? false,
        }).onConflict('id').ignore().returning('*');
        if (!inserted.length) return (await trx('filings').where({ id: p.filingId }).first()) as FilingRecord;
        // The SOS behind it, in the SOS area's confidential table (its policy checks the report is visible to this principal).
        if (p.data.sos_id) await trx('sos_filings').insert({ id: randomUUID(), cod_azienda: p.codAzienda, sos_id: p.data.sos_id, filing_id: p.filingId, created_by: p.actor.username });
        await trx('filing_events').insert({
          id: randomUUID(), cod_azienda: p.codAzienda, filing_id: p.filingId, tipo: 'create',
          testo: p.data.parent_id ? `Bozza creata come seguito di ${p.data.parent_id}` : `Bozza creata: ${p.data.titolo}`, actor: p.actor.username,
        });
        await auditFiling(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'filing.create', entityType: 'filing', entityId: p.filingId,
          data: { titolo: p.data.titolo, tipo: p.data.tipo, due_at: p.dueAt, workflow_id: p.workflowId, ...(p.data.parent_id ? { parent_id: p.data.parent_id } : {}) },
        });
        return inserted[0] as FilingRecord;
      });
    },

    projectFilingTransition: (p) => tx(p, (trx) => writeTransition(trx, p)),
    checkFilingContent: (p) => check(p, false),
    renderFilingPackage: (p) => check(p, true),

    async prepareFilingSigning(p) {
      const ceremonyId = p.transitionId;
      return tx(p, async (trx) => {
        const row = await lock(trx, p.filingId);
        const signer = await trx('utenti').where({ cod_utente: p.actor.id }).first('nome', 'cognome', 'email', 'username');
        const document = JSON.stringify({ filing: row.id, tipo: row.tipo, jurisdiction: row.jurisdiction, report_code: row.report_code, content: row.content }, null, 2);
        return {
          ceremonyId,
          create: {
            actor: p.actor,
            data: {
              signer: { nome: [signer?.nome, signer?.cognome].filter(Boolean).join(' ') || p.actor.username, email: signer?.email ?? '' },
              document: { nome: `segnalazione-${row.id}.json`, contenuto_base64: Buffer.from(document).toString('base64') },
              consent: CONSENT,
              tokenHash: sha256Hex(filingEsignToken(deps.config.sessionSecret, ceremonyId)),
              parentWorkflowId: row.workflow_id,
            },
          },
        };
      });
    },

    async noticeFilingDeadline(p) {
      const r = await withTenant(db, { codAzienda: p.codAzienda, actor: 'system', principal: FILING_TIMER_PRINCIPAL }, async (trx) => {
        const row = await lock(trx, p.filingId);
        const day = new Date(p.dueAt).toLocaleDateString('it-IT', { timeZone: 'Europe/Rome' });
        const overdue = p.kind === 'overdue';
        const key = `filing-${p.kind}:${p.filingId}:${p.dueAt}`;
        // One notice per kind and due date: a retried activity writes nothing twice.
        const seen = await trx('filing_events').where({ filing_id: p.filingId, tipo: p.kind }).where('testo', 'like', `%${day}%`).first('id');
        if (seen) return { created: 0, recipients: [], messages: [] };
        const first = await trx('filing_events').insert({
          id: randomUUID(), cod_azienda: p.codAzienda, filing_id: p.filingId, tipo: p.kind,
          testo: overdue ? `Scadenza del ${day} superata (stato ${FILING_STATO_LABELS[row.stato]})` : `Scadenza il ${day}`, actor: 'system',
        }).returning('id');
        if (overdue) await trx('filings').where({ id: p.filingId }).update({ overdue: true, updated_at: new Date() });
        await auditFiling(trx, {
          codAzienda: p.codAzienda, actor: 'system', action: `filing.${p.kind}`, entityType: 'filing', entityId: p.filingId,
          data: { due_at: p.dueAt, stato: row.stato, event_id: first[0]?.id },
        });
        return notify(trx, {
          codAzienda: p.codAzienda, recipients: [row.created_by, row.prepared_by].filter((v): v is string => !!v), role: 'co',
          tipo: overdue ? 'filing_overdue' : 'filing_due_soon',
          titolo: overdue ? `Segnalazione scaduta: ${row.titolo}` : `Segnalazione in scadenza il ${day}: ${row.titolo}`,
          messaggio: overdue ? 'Il termine di invio della segnalazione è scaduto.' : 'Il termine di invio della segnalazione si avvicina.',
          link: `/filing/${p.filingId}`, entity: { type: 'filing', id: p.filingId }, dedupKey: key,
        }, m.outbox);
      });
      await m.dispatch(r.messages);
      return { notified: r.created };
    },
  };
}
