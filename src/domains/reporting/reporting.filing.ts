import { createFiling } from '../filing';
import type { Deps } from '../../deps';
import { appendAudit } from '../audit';
import type { SessionUser } from '../../http/context';
import { conflict, ValidationError } from '../../http/errors';
import { REPORT_TIPO_LABELS } from './reporting.labels';
import { filingContent, MAX_FILING_LINES } from './reporting.export';
import { getReport, reportLines } from './reporting.repo';
import { reportTx, requireReport } from './reporting.service';

/**
 * Turns a generated report into a filing draft through the filing area's public surface: same
 * type, same month, its lines as the goAML content (reporting.export.ts says what is mapped).
 * The report keeps the link; a second request answers 409 with the filing it already made.
 */
export async function reportToFiling(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  const row = await requireReport(deps, codAzienda, user, id);
  if (row.filing_id) throw conflict('FILING_EXISTS', 'La bozza di filing di questa segnalazione esiste già', { filing_id: row.filing_id });
  if (row.stato === 'generating' || row.stato === 'failed') throw conflict('INVALID_TRANSITION', 'La segnalazione non è generata', { state: row.stato, allowed_actions: [] });
  if (row.righe > MAX_FILING_LINES) throw new ValidationError([{ path: 'righe', message: `Un filing goAML accetta al massimo ${MAX_FILING_LINES} righe; questa segnalazione ne ha ${row.righe}` }]);
  const lines = await reportTx(deps, codAzienda, user)((trx) => reportLines(trx, id));
  const { filingId } = await createFiling(deps, codAzienda, user, {
    titolo: `${REPORT_TIPO_LABELS[row.tipo]} ${row.periodo}`, tipo: row.tipo, periodo_riferimento: row.periodo, content: filingContent(row, lines) as never,
  });
  await reportTx(deps, codAzienda, user)(async (trx) => {
    const fresh = await getReport(trx, id);
    await trx('reporting_reports').where({ id }).whereNull('filing_id').update({ filing_id: filingId, updated_at: new Date() });
    await appendAudit(trx, { codAzienda, actor: user.username, action: 'reporting.filing_draft', entityType: 'reporting', entityId: id, data: { filing_id: filingId, stato: fresh?.stato, righe: row.righe } });
  });
  return { filing_id: filingId };
}
