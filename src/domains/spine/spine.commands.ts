import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { SessionUser } from '../../http/context';
import { conflict, HttpError, notFound, ValidationError } from '../../http/errors';
import { recordSpineDocument, type DocumentSource, type SpineBytes } from '../../kit/document-sources';
import { appendAudit } from '../audit';
import { DocumentStore, sniffDocument } from '../onboarding';
import { citationsOf, findSpine, retentionFor, type SpineRow } from './spine.repo';
import type { HoldSpineBody, UploadSpineBody } from './spine.schemas';

/**
 * The spine's commands (docs/document-spine.md). Every read runs under the caller's principal, so
 * an SOS attachment is found only by who may see its report (the table's restrictive policy); for
 * anyone else it is exactly as unknown as another tenant's entry (404).
 */
export const spineDb = <T>(deps: Deps, codAzienda: string, user: SessionUser, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username, principal: { user: user.cod_utente, roles: user.ruoli } }, fn);

export interface StoredUpload { sha256: string; nome_file: string; mime: string; dimensione: number }

/** Reads the type from the bytes (a declared type must agree) and keeps them in the content-addressed store. */
export async function storeSpineUpload(deps: Deps, codAzienda: string, file: { bytes: Buffer; nome_file: string; declaredMime?: string }):
Promise<{ ok: true; file: StoredUpload } | { ok: false; status: 415 | 422; message: string }> {
  if (!file.bytes.length) return { ok: false, status: 422, message: 'Il file è vuoto: scegli il file del documento' };
  const kind = await sniffDocument(file.bytes, file.declaredMime);
  if (!kind.ok) return { ok: false, status: /dichiarato/.test(kind.message) ? 422 : 415, message: kind.message };
  const sha256 = await new DocumentStore(deps.config.documentDir).put(codAzienda, file.bytes);
  const nome = file.nome_file.replace(/[\\/]/g, '_').trim().slice(0, 200) || `documento.${kind.ext}`;
  return { ok: true, file: { sha256, nome_file: nome, mime: kind.mime, dimensione: file.bytes.length } };
}

export type SpineView = SpineRow & { conservazione: Awaited<ReturnType<typeof retentionFor>>; citazioni: Awaited<ReturnType<typeof citationsOf>> };

async function view(trx: Knex.Transaction, row: SpineRow): Promise<SpineView> {
  return { ...row, conservazione: await retentionFor(trx, row), citazioni: await citationsOf(trx, row.cod_azienda, row.sha256) };
}

export async function readSpine(deps: Deps, codAzienda: string, user: SessionUser, codSpine: string): Promise<SpineView> {
  return spineDb(deps, codAzienda, user, async (trx) => {
    const row = await findSpine(trx, codAzienda, codSpine);
    if (!row) throw notFound('Documento', 'm');
    return view(trx, row);
  });
}

/** Indexes an uploaded document under its owner (a customer of the tenant), audited in the same transaction. */
export async function uploadSpine(deps: Deps, codAzienda: string, user: SessionUser, body: UploadSpineBody, file: StoredUpload): Promise<SpineView> {
  return spineDb(deps, codAzienda, user, async (trx) => {
    const owner = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: body.cod_anagrafe }).first('cod_anagrafe');
    if (!owner) throw new ValidationError([{ path: 'cod_anagrafe', message: 'Nessun soggetto in anagrafe con questo codice' }]);
    const cod = await recordSpineDocument(trx, {
      codAzienda, tipo: 'caricamento', sorgenteId: `anagrafe:${body.cod_anagrafe}`, sha256: file.sha256, nome_file: file.nome_file, mime: file.mime,
      dimensione: file.dimensione, cod_anagrafe: body.cod_anagrafe, record_tipo: 'anagrafe', record_id: body.cod_anagrafe, record_codice: body.cod_anagrafe,
      descrizione: body.descrizione ?? '', archivio: 'store', createdBy: user.username,
    });
    const row = (await findSpine(trx, codAzienda, cod))!;
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'spine.upload', entityType: 'documento_spine', entityId: row.id,
      data: { cod_spine: cod, cod_anagrafe: body.cod_anagrafe, sha256: file.sha256, mime: file.mime, dimensione: file.dimensione },
    });
    return view(trx, row);
  });
}

/** Audits through the entry's source when it keeps its own trail (SOS), else in the tenant's chain. */
async function auditEntry(trx: Knex.Transaction, source: DocumentSource | undefined, row: SpineRow, actor: string, action: 'download' | 'hold' | 'release', data: Record<string, unknown>) {
  if (source?.audit) return source.audit(trx, row, { actor, action, data });
  await appendAudit(trx, {
    codAzienda: row.cod_azienda, actor, action: `spine.${action}`, entityType: 'documento_spine', entityId: row.id,
    data: { cod_spine: row.cod_spine, sha256: row.sha256, tipo: row.tipo, record_tipo: row.record_tipo, record_id: row.record_id, ...data },
  });
}

/**
 * The bytes of an entry, the download audited in the transaction that read them: from the document
 * store (checked against the hash) or from the record that keeps them (its source's `read`).
 */
export async function downloadSpine(deps: Deps, codAzienda: string, user: SessionUser, codSpine: string, sources: Map<string, DocumentSource>): Promise<SpineBytes> {
  return spineDb(deps, codAzienda, user, async (trx) => {
    const row = await findSpine(trx, codAzienda, codSpine);
    if (!row) throw notFound('Documento', 'm');
    const source = sources.get(row.tipo);
    let copy: SpineBytes | null = null;
    if (row.archivio === 'store') {
      copy = await new DocumentStore(deps.config.documentDir).get(codAzienda, row.sha256)
        .then((bytes) => ({ bytes, nome_file: row.nome_file, mime: row.mime }), (err: unknown) => {
          deps.logger.warn({ err, cod_spine: row.cod_spine }, 'spine copy unreadable');
          return null;
        });
    } else if (source?.read) {
      copy = await source.read(trx, row);
    }
    if (!copy) throw new HttpError(410, 'DOCUMENT_COPY_UNAVAILABLE', 'Copia non disponibile', 'La copia di questo documento non è più disponibile dove era conservata (o non corrisponde più alla sua impronta)');
    await auditEntry(trx, source, row, user.username, 'download', { dimensione: copy.bytes.length });
    return copy;
  });
}

/** Sets or lifts the legal hold, with its reason, audited; asking for the state it is already in is a 409. */
export async function holdSpine(deps: Deps, codAzienda: string, user: SessionUser, codSpine: string, body: HoldSpineBody, sources: Map<string, DocumentSource>): Promise<SpineView> {
  return spineDb(deps, codAzienda, user, async (trx) => {
    const row = await findSpine(trx, codAzienda, codSpine, { forUpdate: true });
    if (!row) throw notFound('Documento', 'm');
    if (row.blocco_legale === body.blocco) {
      throw conflict(body.blocco ? 'ALREADY_ON_HOLD' : 'NOT_ON_HOLD', body.blocco ? 'Il documento è già sotto blocco legale' : 'Il documento non è sotto blocco legale');
    }
    await trx('documenti_spine').where({ cod_azienda: codAzienda, id: row.id }).update(body.blocco
      ? { blocco_legale: true, blocco_motivo: body.motivo, blocco_by: user.username, blocco_at: new Date() }
      : { blocco_legale: false, blocco_motivo: null, blocco_by: null, blocco_at: null });
    await auditEntry(trx, sources.get(row.tipo), row, user.username, body.blocco ? 'hold' : 'release', { motivo: body.motivo });
    return view(trx, (await findSpine(trx, codAzienda, codSpine))!);
  });
}
