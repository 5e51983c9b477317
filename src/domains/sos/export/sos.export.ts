import type { Deps } from '../../../deps';
import type { SessionUser } from '../../../http/context';
import { HttpError } from '../../../http/errors';
import { fenomeniSos } from '../sos.codes';
import { sosDetail } from '../sos.service';
import { sosPdf } from './sos.pdf';
import { sosToXml } from './sos.xml-mapping';
import { validateSosXml } from './sos.xml-validate';

export type SosExportFormat = 'xml' | 'pdf';

/**
 * A report's export (docs/sos.md, "Export"): the XML validated against the published schema (an
 * invalid document is refused, never served) or the readable PDF. The read is recorded in the
 * report's audit chain as an export.
 */
export async function exportSos(deps: Deps, codAzienda: string, user: SessionUser, idOrCode: string, format: SosExportFormat) {
  const d = await sosDetail(deps, codAzienda, user, idOrCode, 'sos.export');
  const base = `segnalazione-${d.row.cod_segnalazione}`;
  if (format === 'pdf') {
    const bytes = await sosPdf({
      report: d.row, sostituisce: d.sostituisce?.cod_segnalazione ?? null, content: d.content, allegati: d.allegati as { nome_file: string; sha256: string }[],
      fenomeni: Object.fromEntries(fenomeniSos().map((f) => [f.codice, f.descrizione])),
      comunicazioni: d.comunicazioni as { data: string; direzione: string; oggetto: string; protocollo: string | null }[],
    });
    return { body: bytes, type: 'application/pdf', fileName: `${base}.pdf`, validation: null };
  }
  const xml = sosToXml({ report: d.row, sostituisce: d.sostituisce?.cod_segnalazione ?? null, content: d.content, allegati: d.allegati as { nome_file: string; sha256: string; mime: string }[] });
  const verdict = await validateSosXml(xml);
  if (!verdict.valid) {
    throw new HttpError(422, 'EXPORT_INVALID', 'Esportazione non valida', 'La segnalazione non rispetta lo schema di esportazione: completala prima di esportarla', { errors: verdict.errors.map((message) => ({ path: 'xml', message })) });
  }
  return { body: Buffer.from(xml, 'utf8'), type: 'application/xml; charset=utf-8', fileName: `${base}.xml`, validation: 'valid' as const };
}
