import type { Knex } from 'knex';
import { auditTimeline, type TimelineItem } from '../../../kit/timeline';
import { fullNamesByUsername, userNames } from '../../../kit/users';
import { STATO_CHECK_LABELS, STATO_VERIFICA_LABELS, TIPO_CHECK_LABELS, type TipoVerifica } from '../verifications.vocabulary';

/**
 * What the console's pages read besides the verification itself (part kyc's getVerification):
 * the customer's name, the documents with their download, the audit timeline of the verification,
 * its checks and the downloads of its documents. Always inside withTenant (RLS), tenant named too.
 */

export const VERIFICATION_CODE: Record<TipoVerifica, RegExp> = { kyc: /^KYC-[0-9]{6,}$/, kyb: /^KYB-[0-9]{6,}$/ };

/** The audit actions of a document download from the console (one per kind: the route says which). */
export const DOWNLOAD_ACTION = 'verifica.documento_download' as const;

export interface ConsoleDocument {
  id: string;
  cod_documento: string;
  tipo: string;
  numero: string | null;
  data_scadenza: string | null;
  stato: string;
  esito_verifica: string;
  nome_file: string | null;
  mime: string | null;
  dimensione: number | null;
  scaricabile: boolean;
}

/** The documents the verification relied on, with whether a file is stored to download. */
export async function consoleDocuments(trx: Knex.Transaction, codAzienda: string, verificaId: string): Promise<ConsoleDocument[]> {
  const rows = await trx('verifiche_documenti as vd').join('documenti as d', 'd.id', 'vd.documento_id')
    .where({ 'vd.cod_azienda': codAzienda, 'vd.verifica_id': verificaId })
    .orderBy([{ column: 'vd.created_at' }, { column: 'd.id' }])
    .select('d.id', 'd.cod_documento', 'd.tipo', 'd.numero', trx.raw("to_char(d.data_scadenza, 'YYYY-MM-DD') as data_scadenza"), 'd.stato',
      'd.esito_verifica', 'd.nome_file', 'd.mime', 'd.dimensione', 'd.sha256');
  return rows.map((r: Record<string, unknown>) => ({
    id: r.id as string, cod_documento: r.cod_documento as string, tipo: r.tipo as string, numero: (r.numero as string | null) ?? null,
    data_scadenza: (r.data_scadenza as string | null) ?? null, stato: r.stato as string, esito_verifica: r.esito_verifica as string,
    nome_file: (r.nome_file as string | null) ?? null, mime: (r.mime as string | null) ?? null,
    dimensione: r.dimensione === null || r.dimensione === undefined ? null : Number(r.dimensione), scaricabile: !!r.sha256,
  }));
}

/** The customer's name and kind for the header (the verification keeps only the code). */
export async function customerOf(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string) {
  return trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .first('cod_anagrafe', 'denominazione', 'tipo_soggetto', 'codice_fiscale', 'partita_iva', 'classe_rischio') as Promise<
      { cod_anagrafe: string; denominazione: string; tipo_soggetto: string; codice_fiscale: string | null; partita_iva: string | null; classe_rischio: string | null } | undefined>;
}

interface AuditRow { action: string; actor: string; occurred_at: Date; entity_type: string; data: Record<string, unknown> | null }

/**
 * The verification's timeline: its own events, its checks' (update, waiver) and the downloads of
 * its documents, oldest first (the audit_events_entity index serves each entity).
 */
export async function consoleTimeline(trx: Knex.Transaction, codAzienda: string, verificaId: string, checkIds: string[], documentIds: string[]): Promise<TimelineItem[]> {
  const rows = await trx('audit_events').where('cod_azienda', codAzienda)
    .where((w) => {
      w.where((x) => x.where('entity_type', 'verifica').where('entity_id', verificaId));
      if (checkIds.length) w.orWhere((x) => x.where('entity_type', 'verifica_check').whereIn('entity_id', checkIds));
      if (documentIds.length) w.orWhere((x) => x.where('entity_type', 'documento').whereIn('entity_id', documentIds).where('action', DOWNLOAD_ACTION));
    })
    .orderByRaw('occurred_at, seq nulls last, id').select('action', 'actor', 'occurred_at', 'entity_type', 'data') as AuditRow[];
  return auditTimeline(trx, rows, {
    // A check's events (verifica_check.*) move a check, not the verification: their states are the check's.
    states: (r) => (r.action.startsWith('verifica_check.') ? STATO_CHECK_LABELS : STATO_VERIFICA_LABELS),
    detail: (r) => {
      const d = r.data ?? {};
      const lines: string[] = [];
      if (typeof d.cod_check === 'string') {
        const kind = typeof d.tipo === 'string' ? (TIPO_CHECK_LABELS as Record<string, string>)[d.tipo] : undefined;
        lines.push(kind ? `${kind} (${d.cod_check})` : `Controllo ${d.cod_check}`);
      }
      if (typeof d.cod_documento === 'string') lines.push(`Documento ${d.cod_documento}`);
      if (typeof d.motivo === 'string' && d.motivo.trim()) lines.push(`Motivo: ${d.motivo.trim()}`);
      if (typeof d.motivo_deroga === 'string' && d.motivo_deroga.trim()) lines.push(`Motivo della deroga: ${d.motivo_deroga.trim()}`);
      if (typeof d.esito_nota === 'string' && d.esito_nota.trim()) lines.push(`Nota: ${d.esito_nota.trim()}`);
      return lines;
    },
  });
}

/**
 * People's names for the columns that record who did what: the projections write usernames or
 * user ids depending on the writer, so both are looked up.
 */
export async function peopleNames(trx: Knex.Transaction, who: (string | null | undefined)[]): Promise<Record<string, string>> {
  const list = who.filter((w): w is string => !!w);
  const uuids = list.filter((w) => /^[0-9a-f-]{36}$/i.test(w));
  return { ...(await fullNamesByUsername(trx, list)), ...(await userNames(trx, uuids)) };
}
