import type { Knex } from 'knex';
import { sosToXml } from './export/sos.xml-mapping';
import { validateSosXml } from './export/sos.xml-validate';
import { sosCompleteness, type CompletenessItem } from './sos.completeness';
import { readSosContent } from './sos.content';

interface ReadinessRow {
  id: string; cod_segnalazione: string; tipo: string; origine: string; origine_ref: string | null; oggetto: string; descrizione: string;
  reporter_username: string; protocollo_uif: string | null; created_at: Date | string; trasmessa_at: Date | string | null; sostituisce_id: string | null; stato: string;
}

/** The report's completeness, the export's schema verdict included (docs/sos.md, "Completeness"). */
export async function sosReadiness(trx: Knex.Transaction, row: ReadinessRow): Promise<{ items: CompletenessItem[]; xmlErrors: string[] }> {
  const content = await readSosContent(trx, row.id);
  const allegati = await trx('sos_allegati').where({ sos_id: row.id }).select('nome_file', 'sha256', 'mime') as { nome_file: string; sha256: string; mime: string }[];
  const sostituisce = row.sostituisce_id ? (await trx('sos_reports').where({ id: row.sostituisce_id }).first('cod_segnalazione'))?.cod_segnalazione ?? null : null;
  const verdict = await validateSosXml(sosToXml({ report: row, sostituisce, content, allegati }));
  return { items: sosCompleteness(row, content, verdict.valid), xmlErrors: verdict.errors };
}
