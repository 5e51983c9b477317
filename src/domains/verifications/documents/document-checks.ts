import { codiceFiscaleMismatches, type CfMismatch } from './codice-fiscale-match';
import { readability } from './file-structure';
import { parseMrz, type MrzCheck, type MrzFields } from './mrz';

/**
 * The checks of a document record (docs/documents.md), pure: the caller reads the record, the
 * person, the stored copy and its sniffed type, and stores the outcome in documenti.verifica.
 * Each check answers ok, ko or non_applicabile with an Italian message the pages show as is.
 */

export const CONTROLLI_DOCUMENTO = ['tipo_dimensione', 'leggibile', 'scadenza', 'mrz_cifre', 'mrz_dati', 'codice_fiscale'] as const;
export type ControlloDocumento = (typeof CONTROLLI_DOCUMENTO)[number];
export const CONTROLLO_DOCUMENTO_LABELS: Record<ControlloDocumento, string> = {
  tipo_dimensione: 'Tipo e dimensione del file', leggibile: 'Leggibilità del file', scadenza: 'Validità (scadenza)',
  mrz_cifre: 'Cifre di controllo della zona a lettura ottica (ICAO 9303)', mrz_dati: 'Zona a lettura ottica e dati registrati',
  codice_fiscale: 'Coerenza del codice fiscale con la persona',
};

export type EsitoControllo = 'ok' | 'ko' | 'non_applicabile';
export const ESITO_CONTROLLO_LABELS: Record<EsitoControllo, string> = { ok: 'Superato', ko: 'Non superato', non_applicabile: 'Non applicabile' };

export interface DocumentCheck {
  controllo: ControlloDocumento;
  esito: EsitoControllo;
  messaggio: string;
  dettagli?: Record<string, unknown>;
}

export interface DocumentCheckInput {
  documento: {
    tipo: string; numero: string | null; data_scadenza: string | null; mrz: string | null; mime: string | null; dimensione: number | null;
  };
  /** The stored copy, with the type its bytes say (null: no copy, or it could not be read: `motivo`). */
  copia: { bytes: Buffer; mimeLetto: string | null } | { motivo: string } | null;
  persona: { tipo_soggetto: string; cognome: string | null; nome: string | null; data_nascita: string | null; codice_fiscale: string | null } | null;
  /** The largest file accepted (bytes). */
  maxBytes: number;
  /** 'YYYY-MM-DD', Europe/Rome. */
  oggi: string;
}

export interface DocumentVerification { esito: 'valido' | 'non_valido'; controlli: DocumentCheck[]; mrz: MrzFields | null }

/** Identity documents: an expiry date is required, and an MRZ is read when given. */
const IDENTITY = ['carta_identita', 'passaporto', 'patente', 'permesso_soggiorno'];
const ACCEPTED = ['application/pdf', 'image/jpeg', 'image/png'];
/** A file size as people read it: 512 byte, 12,5 kB, 3,2 MB. */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString('it-IT', { maximumFractionDigits: 1 })} kB`;
  return `${(bytes / 1024 / 1024).toLocaleString('it-IT', { maximumFractionDigits: 1 })} MB`;
}
const mb = sizeLabel;
const it = (iso: string) => iso.split('-').reverse().join('/');
const letters = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z]/g, '');

function typeAndSize(i: DocumentCheckInput): DocumentCheck {
  const c = (esito: EsitoControllo, messaggio: string, dettagli?: Record<string, unknown>): DocumentCheck => ({ controllo: 'tipo_dimensione', esito, messaggio, ...(dettagli ? { dettagli } : {}) });
  if (!i.copia) return c('ko', 'Nessuna copia del documento caricata: carica il file del documento');
  if ('motivo' in i.copia) return c('ko', i.copia.motivo);
  const { bytes, mimeLetto } = i.copia;
  const dettagli = { mime_registrato: i.documento.mime, mime_letto: mimeLetto, dimensione: bytes.length, massimo: i.maxBytes };
  if (!mimeLetto || !ACCEPTED.includes(mimeLetto)) return c('ko', 'Il contenuto del file non è un PDF, un JPEG o un PNG', dettagli);
  if (mimeLetto !== i.documento.mime) return c('ko', `Il file registrato come ${i.documento.mime} è in realtà ${mimeLetto}`, dettagli);
  if (bytes.length === 0) return c('ko', 'Il file è vuoto', dettagli);
  if (bytes.length > i.maxBytes) return c('ko', `Il file (${mb(bytes.length)}) supera la dimensione massima di ${mb(i.maxBytes)}`, dettagli);
  if (i.documento.dimensione !== null && Number(i.documento.dimensione) !== bytes.length) {
    return c('ko', `La copia conservata (${bytes.length} byte) non ha la dimensione registrata (${i.documento.dimensione} byte)`, dettagli);
  }
  return c('ok', `${mimeLetto === 'application/pdf' ? 'PDF' : mimeLetto === 'image/png' ? 'PNG' : 'JPEG'} di ${mb(bytes.length)}, entro il limite di ${mb(i.maxBytes)}`, dettagli);
}

function readable(i: DocumentCheckInput): DocumentCheck {
  if (!i.copia) return { controllo: 'leggibile', esito: 'ko', messaggio: 'Nessuna copia del documento da leggere' };
  if ('motivo' in i.copia) return { controllo: 'leggibile', esito: 'ko', messaggio: i.copia.motivo };
  const r = readability(i.copia.bytes, i.copia.mimeLetto ?? '');
  return r.ok ? { controllo: 'leggibile', esito: 'ok', messaggio: `Il file si apre: ${r.descrizione}`, dettagli: r.dettagli }
    : { controllo: 'leggibile', esito: 'ko', messaggio: r.motivo };
}

function expiry(i: DocumentCheckInput): DocumentCheck {
  const scade = i.documento.data_scadenza;
  if (!scade) {
    return IDENTITY.includes(i.documento.tipo)
      ? { controllo: 'scadenza', esito: 'ko', messaggio: 'Il documento di identità non ha una data di scadenza registrata' }
      : { controllo: 'scadenza', esito: 'non_applicabile', messaggio: 'Documento senza data di scadenza' };
  }
  if (scade < i.oggi) return { controllo: 'scadenza', esito: 'ko', messaggio: `Documento scaduto il ${it(scade)}`, dettagli: { data_scadenza: scade } };
  return { controllo: 'scadenza', esito: 'ok', messaggio: `Documento valido fino al ${it(scade)}`, dettagli: { data_scadenza: scade } };
}

const CAMPO_MRZ: Record<MrzCheck['campo'], string> = {
  numero_documento: 'numero del documento', data_nascita: 'data di nascita', data_scadenza: 'data di scadenza', dati_facoltativi: 'dati facoltativi', composito: 'cifra composita',
};

/** The document codes each record type may carry in its zone (Doc 9303: P passports; I, A, C identity cards; IR, AR... residence permits). */
const CODES: Record<string, { formati: string[]; iniziali: string[]; nome: string }> = {
  passaporto: { formati: ['TD3'], iniziali: ['P'], nome: 'un passaporto (formato TD3, codice P)' },
  carta_identita: { formati: ['TD1', 'TD2'], iniziali: ['I', 'A', 'C'], nome: 'una carta d\'identità (formato TD1 o TD2, codice I, A o C)' },
};

function mrzDigits(i: DocumentCheckInput, parsed: ReturnType<typeof parseMrz> | null): DocumentCheck {
  if (!parsed) return { controllo: 'mrz_cifre', esito: 'non_applicabile', messaggio: 'Zona a lettura ottica non indicata' };
  if (!parsed.ok) return { controllo: 'mrz_cifre', esito: 'ko', messaggio: parsed.errore };
  const expected = CODES[i.documento.tipo];
  const f = parsed.campi;
  const dettagli = { formato: f.formato, controlli: parsed.controlli };
  if (expected && (!expected.formati.includes(f.formato) || !expected.iniziali.includes(f.codice_documento[0] ?? ''))) {
    return { controllo: 'mrz_cifre', esito: 'ko', messaggio: `La zona a lettura ottica (${f.formato}, codice ${f.codice_documento || '—'}) non è quella di ${expected.nome}`, dettagli };
  }
  const wrong = parsed.controlli.filter((c) => !c.ok);
  if (wrong.length) {
    return {
      controllo: 'mrz_cifre', esito: 'ko', dettagli,
      messaggio: `Cifre di controllo errate: ${wrong.map((c) => `${CAMPO_MRZ[c.campo]} (letta ${c.letto}, attesa ${c.atteso})`).join('; ')}`,
    };
  }
  return { controllo: 'mrz_cifre', esito: 'ok', messaggio: `Formato ${f.formato}: tutte le ${parsed.controlli.length} cifre di controllo corrispondono`, dettagli };
}

/** A name in the zone is transliterated and may be cut to fit its line: the record's must start with it. */
const sameName = (mrz: string, record: string) => letters(mrz).length > 0 && letters(record).startsWith(letters(mrz));

function mrzVsRecord(i: DocumentCheckInput, f: MrzFields | null): DocumentCheck {
  if (!f) return { controllo: 'mrz_dati', esito: 'non_applicabile', messaggio: 'Nessuna zona a lettura ottica leggibile da confrontare' };
  const diff: { campo: string; mrz: string; registrato: string }[] = [];
  const numero = (i.documento.numero ?? '').replace(/[\s<]/g, '').toUpperCase();
  if (numero && f.numero_documento.replace(/\s/g, '') !== numero) diff.push({ campo: 'numero del documento', mrz: f.numero_documento, registrato: numero });
  if (i.documento.data_scadenza && f.data_scadenza !== i.documento.data_scadenza) {
    diff.push({ campo: 'data di scadenza', mrz: f.data_scadenza ? it(f.data_scadenza) : '—', registrato: it(i.documento.data_scadenza) });
  }
  const p = i.persona;
  if (p?.tipo_soggetto === 'persona_fisica') {
    if (p.cognome && !sameName(f.cognome, p.cognome)) diff.push({ campo: 'cognome', mrz: f.cognome, registrato: p.cognome });
    if (p.nome && !sameName(f.nome, p.nome)) diff.push({ campo: 'nome', mrz: f.nome, registrato: p.nome });
    if (p.data_nascita && f.data_nascita !== p.data_nascita) diff.push({ campo: 'data di nascita', mrz: f.data_nascita ? it(f.data_nascita) : '—', registrato: it(p.data_nascita) });
  }
  if (diff.length) {
    return { controllo: 'mrz_dati', esito: 'ko', messaggio: `La zona a lettura ottica non corrisponde ai dati registrati: ${diff.map((d) => `${d.campo} ${d.mrz} invece di ${d.registrato}`).join('; ')}`, dettagli: { differenze: diff } };
  }
  return { controllo: 'mrz_dati', esito: 'ok', messaggio: 'Numero, scadenza e dati anagrafici della zona a lettura ottica corrispondono a quelli registrati' };
}

const CF_FIELD: Record<CfMismatch['campo'], string> = { codice_fiscale: 'codice fiscale', cognome: 'cognome', nome: 'nome', data_nascita: 'data di nascita', sesso: 'sesso' };

function taxCode(i: DocumentCheckInput, f: MrzFields | null): DocumentCheck {
  const p = i.persona;
  if (!p || p.tipo_soggetto !== 'persona_fisica') return { controllo: 'codice_fiscale', esito: 'non_applicabile', messaggio: 'Il titolare del documento non è una persona fisica' };
  if (!p.codice_fiscale || p.codice_fiscale.trim().length !== 16) return { controllo: 'codice_fiscale', esito: 'non_applicabile', messaggio: 'La persona non ha un codice fiscale italiano registrato' };
  // The sex is not in the registry: the zone of the document says it, when there is one.
  const sesso = f?.sesso && f.sesso !== 'X' ? f.sesso : null;
  const diff = codiceFiscaleMismatches(p.codice_fiscale, { cognome: p.cognome, nome: p.nome, data_nascita: p.data_nascita, sesso });
  if (diff.length) {
    return {
      controllo: 'codice_fiscale', esito: 'ko', dettagli: { differenze: diff },
      messaggio: `Il codice fiscale ${p.codice_fiscale.toUpperCase()} non corrisponde alla persona: ${diff.map((d) => `${CF_FIELD[d.campo]} (nel codice ${d.atteso}, registrato ${d.trovato})`).join('; ')}`,
    };
  }
  return {
    controllo: 'codice_fiscale', esito: 'ok',
    messaggio: `Il codice fiscale corrisponde a cognome, nome e data di nascita${sesso ? ' e al sesso indicato nel documento' : ''}`,
  };
}

/** Every check of the document; it is valid when none fails. */
export function verifyDocument(i: DocumentCheckInput): DocumentVerification {
  const parsed = i.documento.mrz && i.documento.mrz.trim() ? parseMrz(i.documento.mrz, new Date(`${i.oggi}T12:00:00Z`)) : null;
  const fields = parsed?.ok ? parsed.campi : null;
  const controlli = [typeAndSize(i), readable(i), expiry(i), mrzDigits(i, parsed), mrzVsRecord(i, fields), taxCode(i, fields)];
  return { esito: controlli.some((c) => c.esito === 'ko') ? 'non_valido' : 'valido', controlli, mrz: fields };
}
