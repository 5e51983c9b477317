import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { conflict, HttpError, notFound, ValidationError } from '../../../http/errors';
import type { SessionUser } from '../../../http/context';
import { appendAudit } from '../../audit';
import { DocumentStore, sniffDocument } from '../../onboarding';
import { createDocumento, todayInRome, type TipoDocumento } from '../../records';
import { verifyDocument } from './document-checks';
import { notifyDocumentsChanged } from './documents.changes';
import { documentHolder, documentVersions, findDocument, type DocumentRow, type DocumentVersionRow } from './documents.repo';
import type { ReplaceDocumentBody, UploadDocumentBody } from './documents.schemas';

/** A file as the upload read it, its type sniffed and stored by its SHA-256 (storeUpload). */
export interface StoredFile { sha256: string; nome_file: string; mime: string; dimensione: number }

export type DocumentView = DocumentRow & { versioni: DocumentVersionRow[] };

const tx = <T>(deps: Deps, codAzienda: string, user: SessionUser, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda, actor: user.username }, fn);

export const documentStore = (deps: Deps) => new DocumentStore(deps.config.documentDir);

/**
 * Reads the type from the bytes (the declared type must agree), refuses an empty file, and keeps
 * the bytes in the content-addressed store. The refusal is the file field's message.
 */
export async function storeUpload(deps: Deps, codAzienda: string, file: { bytes: Buffer; nome_file: string; declaredMime?: string }): Promise<{ ok: true; file: StoredFile } | { ok: false; status: 415 | 422; message: string }> {
  if (!file.bytes.length) return { ok: false, status: 422, message: 'Il file è vuoto: scegli il file del documento' };
  const kind = await sniffDocument(file.bytes, file.declaredMime);
  if (!kind.ok) return { ok: false, status: /dichiarato/.test(kind.message) ? 422 : 415, message: kind.message };
  const sha256 = await documentStore(deps).put(codAzienda, file.bytes);
  const nome = file.nome_file.replace(/[\\/]/g, '_').trim().slice(0, 200) || `documento.${kind.ext}`;
  return { ok: true, file: { sha256, nome_file: nome, mime: kind.mime, dimensione: file.bytes.length } };
}

async function view(trx: Knex.Transaction, codAzienda: string, row: DocumentRow): Promise<DocumentView> {
  return { ...row, versioni: await documentVersions(trx, codAzienda, row.id) };
}

/** The document with its versions; another tenant's code is not found. */
export async function readDocument(deps: Deps, codAzienda: string, user: SessionUser, codDocumento: string): Promise<DocumentView> {
  return tx(deps, codAzienda, user, async (trx) => {
    const row = await findDocument(trx, codAzienda, codDocumento);
    if (!row) throw notFound('Documento', 'm');
    return view(trx, codAzienda, row);
  });
}

/** Records a document with its first version (the records area's createDocumento numbers it, audits it and writes version 1). */
export async function uploadDocument(deps: Deps, codAzienda: string, user: SessionUser, body: UploadDocumentBody, file: StoredFile): Promise<DocumentView> {
  return tx(deps, codAzienda, user, async (trx) => {
    const d = await createDocumento(trx, codAzienda, user.username, {
      cod_anagrafe: body.cod_anagrafe, tipo: body.tipo as TipoDocumento, numero: body.numero ?? null, autorita_rilascio: body.autorita_rilascio ?? null,
      paese_rilascio: body.paese_rilascio ?? null, data_rilascio: body.data_rilascio ?? null, data_scadenza: body.data_scadenza ?? null,
      sha256: file.sha256, nome_file: file.nome_file, mime: file.mime, dimensione: file.dimensione, mrz: body.mrz ? body.mrz.toUpperCase().trim() : null,
    });
    return view(trx, codAzienda, (await findDocument(trx, codAzienda, d.cod_documento))!);
  });
}

/**
 * A new version of the document: the new copy and fields, why; the old versions stay and are
 * listed. The last verification no longer speaks for the new copy: the outcome goes back to
 * "da verificare". The verifications relying on the document are told once committed.
 */
export async function replaceDocument(deps: Deps, codAzienda: string, user: SessionUser, codDocumento: string, body: ReplaceDocumentBody, file: StoredFile): Promise<DocumentView> {
  const saved = await tx(deps, codAzienda, user, async (trx) => {
    const old = await findDocument(trx, codAzienda, codDocumento, { forUpdate: true });
    if (!old) throw notFound('Documento', 'm');
    if (old.stato === 'sostituito') throw conflict('DOCUMENT_SUPERSEDED', 'Il documento è già stato sostituito da un altro: sostituisci quello in vigore');
    const last = await trx('documenti_versioni').where({ cod_azienda: codAzienda, documento_id: old.id }).max('versione as v').first();
    const versione = Math.max(Number(last?.v ?? 0), old.sha256 && !last?.v ? old.versione : 0) + 1;
    const numero = body.numero !== undefined ? body.numero.replace(/\s+/g, '').toUpperCase() : old.numero;
    const next = {
      numero, autorita_rilascio: body.autorita_rilascio ?? old.autorita_rilascio, paese_rilascio: body.paese_rilascio ?? old.paese_rilascio,
      data_rilascio: body.data_rilascio ?? old.data_rilascio, data_scadenza: body.data_scadenza ?? old.data_scadenza,
      mrz: body.mrz !== undefined ? body.mrz.toUpperCase().trim() : old.mrz,
    };
    if (next.data_rilascio && next.data_rilascio > todayInRome()) throw fieldConflict('data_rilascio', 'La data di rilascio non può essere nel futuro');
    if (next.data_rilascio && next.data_scadenza && next.data_scadenza < next.data_rilascio) throw fieldConflict('data_scadenza', 'La data di scadenza non può precedere quella di rilascio');
    if (numero && numero !== old.numero) {
      const same = await trx('documenti').where({ cod_azienda: codAzienda, cod_anagrafe: old.cod_anagrafe, tipo: old.tipo, numero }).whereNot('id', old.id).first('cod_documento');
      if (same) throw conflict('DUPLICATE_DOCUMENT', `Questo numero è già registrato per il soggetto (${same.cod_documento})`, { cod_documento: same.cod_documento });
    }
    const stato = next.data_scadenza && next.data_scadenza < todayInRome() ? 'scaduto' : 'valido';
    await trx('documenti_versioni').insert({
      id: randomUUID(), cod_azienda: codAzienda, documento_id: old.id, versione, sha256: file.sha256, nome_file: file.nome_file, mime: file.mime,
      dimensione: file.dimensione, motivo: body.motivo,
      dati: JSON.stringify({ numero: next.numero, data_rilascio: next.data_rilascio, data_scadenza: next.data_scadenza, autorita_rilascio: next.autorita_rilascio }),
      created_by: user.username,
    });
    await trx('documenti').where({ id: old.id }).update({
      ...next, versione, stato, sha256: file.sha256, nome_file: file.nome_file, mime: file.mime, dimensione: file.dimensione,
      esito_verifica: 'da_verificare', verifica: JSON.stringify([]), verificato_by: null, verificato_at: null, updated_by: user.username, updated_at: trx.fn.now(),
    });
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'documento.replace', entityType: 'documento', entityId: old.id,
      data: {
        cod_documento: old.cod_documento, versione, versione_precedente: old.versione, motivo: body.motivo, sha256: file.sha256,
        data_scadenza: { old: old.data_scadenza, new: next.data_scadenza }, numero: { old: old.numero, new: next.numero },
      },
    });
    return view(trx, codAzienda, (await findDocument(trx, codAzienda, codDocumento))!);
  });
  await notifyDocumentsChanged(deps, codAzienda, [saved.id]);
  return saved;
}

const fieldConflict = (path: string, message: string) => new ValidationError([{ path, message }], message);

/** The stored copy of a version (the current one by default), read back and checked against its address. */
async function readCopy(deps: Deps, codAzienda: string, sha256: string): Promise<{ bytes: Buffer } | { motivo: string }> {
  try {
    return { bytes: await documentStore(deps).get(codAzienda, sha256) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { motivo: code === 'ENOENT' ? 'La copia del documento non si trova nell\'archivio dei documenti' : 'La copia conservata non corrisponde alla sua impronta SHA-256: è stata alterata' };
  }
}

/**
 * Runs every check of the document (document-checks.ts) on its current copy and its holder, and
 * records each outcome with its message in documenti.verifica, the overall one in esito_verifica.
 */
export async function verifyDocumentRecord(deps: Deps, codAzienda: string, user: SessionUser, codDocumento: string): Promise<DocumentView> {
  const before = await readDocument(deps, codAzienda, user, codDocumento);
  let copia: Parameters<typeof verifyDocument>[0]['copia'] = null;
  if (before.sha256) {
    const read = await readCopy(deps, codAzienda, before.sha256);
    if ('motivo' in read) copia = read;
    else {
      const sniffed = await sniffDocument(read.bytes);
      copia = { bytes: read.bytes, mimeLetto: sniffed.ok ? sniffed.mime : null };
    }
  }
  return tx(deps, codAzienda, user, async (trx) => {
    const row = await findDocument(trx, codAzienda, codDocumento, { forUpdate: true });
    if (!row) throw notFound('Documento', 'm');
    // A replacement committed between the read of the copy and this lock: the outcome would speak for the old copy.
    if (row.sha256 !== before.sha256) throw conflict('DOCUMENT_CHANGED', 'Il documento è stato sostituito mentre lo verificavi: ripeti la verifica');
    const persona = await documentHolder(trx, codAzienda, row.cod_anagrafe);
    const r = verifyDocument({ documento: row, copia, persona: persona ?? null, maxBytes: deps.config.uploadMaxBytes, oggi: todayInRome() });
    await trx('documenti').where({ id: row.id }).update({
      esito_verifica: r.esito, verifica: JSON.stringify(r.controlli), verificato_by: user.username, verificato_at: trx.fn.now(), updated_at: trx.fn.now(),
    });
    await appendAudit(trx, {
      codAzienda, actor: user.username, action: 'documento.verify', entityType: 'documento', entityId: row.id,
      data: { cod_documento: row.cod_documento, versione: row.versione, esito: r.esito, controlli: r.controlli.map((c) => ({ controllo: c.controllo, esito: c.esito })) },
    });
    return view(trx, codAzienda, (await findDocument(trx, codAzienda, codDocumento))!);
  });
}

/** One version's copy for a download, the download audited (who read which identity document, and when) once the copy is read. */
export async function downloadDocument(deps: Deps, codAzienda: string, user: SessionUser, codDocumento: string, versione?: number): Promise<{ bytes: Buffer; nome_file: string; mime: string; versione: number }> {
  const { row, chosen } = await tx(deps, codAzienda, user, async (trx) => {
    const found = await findDocument(trx, codAzienda, codDocumento);
    if (!found) throw notFound('Documento', 'm');
    const versions = await documentVersions(trx, codAzienda, found.id);
    return { row: found, chosen: versione === undefined ? versions[0] : versions.find((x) => x.versione === versione) };
  });
  if (!chosen) throw notFound(versione === undefined ? 'Copia del documento' : `Versione ${versione} del documento`, 'f');
  const copy = await readCopy(deps, codAzienda, chosen.sha256);
  if ('motivo' in copy) throw new HttpError(410, 'DOCUMENT_COPY_UNAVAILABLE', 'Copia non disponibile', copy.motivo);
  await tx(deps, codAzienda, user, (trx) => appendAudit(trx, {
    codAzienda, actor: user.username, action: 'documento.download', entityType: 'documento', entityId: row.id,
    data: { cod_documento: row.cod_documento, versione: chosen.versione, sha256: chosen.sha256 },
  }));
  return { bytes: copy.bytes, nome_file: chosen.nome_file, mime: chosen.mime, versione: chosen.versione };
}
