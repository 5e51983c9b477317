import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../audit';
import { conflict } from '../../http/errors';
import { Documento } from './documento.model';
import { nextCode } from './records.codes';
import { todayInRome } from './records.dates';
import { assertSubjects, fieldError } from './records.references';
import type { TipoDocumento } from './records.vocabulary';

/** An identity or company document of a subject. */
export interface DocumentoInput {
  cod_anagrafe: string;
  tipo: TipoDocumento;
  numero?: string | null;
  autorita_rilascio?: string | null;
  paese_rilascio?: string | null;
  data_rilascio?: string | null;
  data_scadenza?: string | null;
  stato?: 'valido' | 'sostituito';
  sha256?: string | null;
  nome_file?: string | null;
  mime?: string | null;
  /** Size in bytes of the scanned copy. */
  dimensione?: number | null;
  mrz?: string | null;
}

/**
 * Records a document. Its dates must be coherent (issued by today, expiring after issue); a
 * document already past its expiry is recorded as 'scaduto'. The same type and number for the
 * same subject is recorded once (409).
 */
export async function createDocumento(trx: Knex.Transaction, codAzienda: string, actor: string, input: DocumentoInput): Promise<Documento> {
  const today = todayInRome();
  if (input.data_rilascio && input.data_rilascio > today) throw fieldError('data_rilascio', 'La data di rilascio non può essere nel futuro');
  if (input.data_rilascio && input.data_scadenza && input.data_scadenza < input.data_rilascio) {
    throw fieldError('data_scadenza', 'La data di scadenza non può precedere quella di rilascio');
  }
  await assertSubjects(trx, codAzienda, { cod_anagrafe: input.cod_anagrafe });
  const numero = input.numero ? input.numero.replace(/\s+/g, '').toUpperCase() : null;
  if (numero) {
    const same = await trx('documenti').where({ cod_azienda: codAzienda, cod_anagrafe: input.cod_anagrafe, tipo: input.tipo, numero }).first('id');
    if (same) throw conflict('DUPLICATE_DOCUMENT', 'Questo documento è già registrato per il soggetto', { id: same.id });
  }
  const stato = input.stato === 'sostituito' ? 'sostituito' : input.data_scadenza && input.data_scadenza < today ? 'scaduto' : 'valido';
  const id = randomUUID();
  const codDocumento = await nextCode(trx, codAzienda, 'DOC');
  await trx('documenti').insert({
    id, cod_azienda: codAzienda, cod_documento: codDocumento, dimensione: input.dimensione ?? null, mrz: input.mrz ?? null, cod_anagrafe: input.cod_anagrafe, tipo: input.tipo, numero, autorita_rilascio: input.autorita_rilascio ?? null,
    paese_rilascio: input.paese_rilascio ? input.paese_rilascio.toUpperCase() : null, data_rilascio: input.data_rilascio ?? null,
    data_scadenza: input.data_scadenza ?? null, stato, sha256: input.sha256 ?? null, nome_file: input.nome_file ?? null, mime: input.mime ?? null,
    created_by: actor,
  });
  // The scanned copy is the document's first version (document records keep every later one).
  if (input.sha256) {
    await trx('documenti_versioni').insert({
      id: randomUUID(), cod_azienda: codAzienda, documento_id: id, versione: 1, sha256: input.sha256, nome_file: input.nome_file, mime: input.mime,
      dimensione: input.dimensione ?? null, dati: JSON.stringify({ numero, data_rilascio: input.data_rilascio ?? null, data_scadenza: input.data_scadenza ?? null, autorita_rilascio: input.autorita_rilascio ?? null }),
      created_by: actor,
    });
  }
  await appendAudit(trx, {
    codAzienda, actor, action: 'documento.create', entityType: 'documento', entityId: id,
    data: { cod_documento: codDocumento, cod_anagrafe: input.cod_anagrafe, tipo: input.tipo, data_scadenza: input.data_scadenza ?? null, stato },
  });
  return (await Documento.of(trx).findById(id))!;
}
