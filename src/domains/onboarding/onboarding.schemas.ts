import { z } from 'zod';
import { SUBJECT_TYPES, type SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import { testo, testoOpzionale } from '../../http/text-field';
import { ISO2 } from './countries';
import { refersTo } from '../../db/references';

/**
 * The applicant's data, one schema per wizard section. Two strengths of each: `draft`
 * (lenient: every field optional, saved as typed so nothing is lost) and `complete`
 * (what submission requires). Field names are the Italian ones the records keep.
 */

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v);
// Free text follows the shared rule (src/http/text-field.ts): no control characters, not punctuation alone.
const text = (max = 200) => z.preprocess(blank, testo({ max, min: 1 }));
// Optional inside the preprocess: a blank field becomes undefined and is then accepted.
const opt = (max = 200, multiline = false) => z.preprocess(blank, testoOpzionale({ max, min: 1, multiline }));
const country = () => z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v),
  z.string({ error: 'Indica il paese' }).refine((c) => ISO2.has(c), 'Paese non valido (codice ISO a due lettere)'));
const date = () => z.preprocess(blank, z.string({ error: 'Indica la data' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (AAAA-MM-GG)')
  .refine((d) => !Number.isNaN(Date.parse(d)), 'Data non valida'));
const pastDate = () => date().refine((d) => Date.parse(d) < Date.now(), 'La data deve essere nel passato');
const futureDate = () => date().refine((d) => Date.parse(d) > Date.now(), 'Il documento è scaduto');
const BOOLS: Record<string, boolean> = { true: true, on: true, '1': true, si: true, 'sì': true, false: false, off: false, '0': false, no: false };
const bool = () => z.preprocess((v) => (typeof v === 'string' ? BOOLS[v.toLowerCase()] ?? v : v), z.boolean({ error: 'Indica sì o no' }));
/** Italian tax code of a natural person (16 characters, omocodia letters allowed). */
const CF_PF = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;
const upperOrUndef = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v);
const optCodiceFiscalePF = () => z.preprocess(upperOrUndef, z.string().regex(CF_PF, 'Codice fiscale non valido').optional());
const partitaIva = () => z.preprocess(blank, z.string({ error: 'Indica la partita IVA' }).regex(/^\d{11}$/, 'La partita IVA ha 11 cifre'));
const email = () => z.preprocess(blank, z.email({ error: 'Indirizzo e-mail non valido' }).max(254));
const optEmail = () => z.preprocess(blank, z.email({ error: 'Indirizzo e-mail non valido' }).max(254).optional());

export const subjectTypeSchema = z.object({ subject_type: z.enum(SUBJECT_TYPES, { error: 'Scegli il tipo di cliente' }) });

export const addressSchema = z.object({
  via: text(200), cap: z.preprocess(blank, z.string({ error: 'Campo obbligatorio' }).max(16)), citta: text(100), provincia: opt(50), paese: country(),
});

const identityDocument = z.object({
  tipo: z.enum(['carta_identita', 'passaporto', 'patente'], { error: 'Scegli il tipo di documento' }),
  numero: text(50), rilasciato_da: text(200), scadenza: futureDate(),
});

const personFields = {
  nome: text(100), cognome: text(100), codice_fiscale: optCodiceFiscalePF(), data_nascita: pastDate(), luogo_nascita: text(100),
  nazionalita: country(), paese_residenza: country(), residenza: addressSchema, telefono: opt(30), professione: text(100),
  pep: bool(), pep_dettaglio: opt(500, true), documento: identityDocument,
};

const pepDetail = <T extends z.ZodType<{ pep?: boolean; pep_dettaglio?: string }>>(s: T) =>
  s.refine((v) => !v.pep || !!v.pep_dettaglio, { path: ['pep_dettaglio'], message: 'Descrivi la carica pubblica ricoperta' });

export const personaFisicaSchema = pepDetail(z.object(personFields));
export const dittaIndividualeSchema = pepDetail(z.object({
  ...personFields, denominazione: text(200), partita_iva: partitaIva(), attivita: text(200), sede: addressSchema,
}));
export const societaSchema = z.object({
  denominazione: text(200), forma_giuridica: z.enum(['srl', 'spa', 'sapa', 'snc', 'sas', 'coop', 'altro'], { error: 'Scegli la forma giuridica' }),
  codice_fiscale: z.preprocess(blank, z.string({ error: 'Indica il codice fiscale' }).regex(/^(\d{11}|[A-Z0-9]{16})$/i, 'Codice fiscale non valido')),
  partita_iva: partitaIva(), data_costituzione: pastDate(), paese_costituzione: country(), sede: addressSchema, attivita: text(200),
  email_pec: optEmail(),
  legale_rappresentante: pepDetail(z.object({
    nome: text(100), cognome: text(100), codice_fiscale: optCodiceFiscalePF(), data_nascita: pastDate(), nazionalita: country(),
    pep: bool(), pep_dettaglio: opt(500, true), documento: identityDocument,
  })),
});

export const ANAGRAFE_SCHEMAS: Record<SubjectType, z.ZodType> = {
  persona_fisica: personaFisicaSchema, ditta_individuale: dittaIndividualeSchema, societa: societaSchema,
};

export const TIPI_CONTROLLO = ['proprieta_diretta', 'proprieta_indiretta', 'controllo', 'rappresentanza'] as const;
export const uboSchema = pepDetail(z.object({
  id: z.uuid().optional(),
  nome: text(100), cognome: text(100), codice_fiscale: optCodiceFiscalePF(), data_nascita: pastDate(), luogo_nascita: opt(100),
  nazionalita: country(), paese_residenza: country(),
  percentuale: z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.replace(',', '.'))) : v),
    z.number({ error: 'Indica la percentuale' }).min(0, 'Minimo 0').max(100, 'Massimo 100')),
  tipo_controllo: z.enum(TIPI_CONTROLLO, { error: 'Scegli il tipo di controllo' }),
  pep: bool(), pep_dettaglio: opt(500, true),
}));
export const uboListSchema = z.object({ titolari: z.array(uboSchema).max(20, 'Al massimo 20 titolari effettivi') })
  .refine((v) => v.titolari.reduce((s, t) => s + (t.percentuale ?? 0), 0) <= 100, { path: ['titolari'], message: 'Le percentuali superano il 100%' });

export const RUOLI_PAESE = ['sede_operativa', 'clienti', 'fornitori', 'origine_fondi'] as const;
export const countriesSchema = z.object({
  paesi: z.array(z.object({ paese: country(), ruolo: z.enum(RUOLI_PAESE, { error: 'Scegli il ruolo del paese' }) })).min(1, 'Indica almeno un paese').max(60),
});

export const RETI = ['BTC', 'ETH', 'ERC20', 'TRX', 'SOL', 'LTC', 'XRP', 'altro'] as const;
export const walletInputSchema = z.object({
  rete: z.enum(RETI, { error: 'Scegli la rete' }),
  indirizzo: z.preprocess(blank, z.string({ error: 'Indica l\'indirizzo' }).min(20, 'Indirizzo troppo corto').max(128, 'Indirizzo troppo lungo').regex(/^[A-Za-z0-9:]+$/, 'L\'indirizzo contiene caratteri non ammessi')),
  tipo: z.enum(['custodial', 'self_hosted'], { error: 'Indica se il wallet è presso un prestatore (custodial) o self-hosted' }),
  vasp_nome: opt(200),
  volume_annuo_eur: z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.replace(/\./g, '').replace(',', '.'))) : v),
    z.number({ error: 'Indica un importo' }).min(0).max(1e12).optional()),
  prova: z.object({
    metodo: z.enum(['firma_messaggio', 'dichiarazione'], { error: 'Scegli come provi il controllo del wallet' }),
    messaggio: opt(2000), firma: opt(500),
  }).refine((p) => p.metodo !== 'firma_messaggio' || (!!p.messaggio && !!p.firma), { path: ['firma'], message: 'Incolla il messaggio e la firma prodotta dal wallet' }).optional(),
}).refine((w) => w.tipo !== 'custodial' || !!w.vasp_nome, { path: ['vasp_nome'], message: 'Indica il prestatore (exchange) che custodisce il wallet' });

export const TRAVEL_RULE_VERSION = 'tfr-2024-1';
export const travelRuleDeclarationSchema = z.object({
  titolare_wallet: bool().refine((v) => v, 'Devi dichiarare di essere titolare dei wallet indicati'),
  fondi_leciti: bool().refine((v) => v, 'Devi dichiarare la provenienza lecita dei fondi'),
  aggiornamento: bool().refine((v) => v, 'Devi impegnarti a comunicare le variazioni'),
  luogo: text(100),
});

export const DOCUMENT_TYPES = {
  documento_identita: 'Documento d\'identità',
  codice_fiscale: 'Tessera del codice fiscale',
  prova_indirizzo: 'Prova di residenza',
  visura_camerale: 'Visura camerale',
  atto_costitutivo: 'Atto costitutivo e statuto',
  bilancio: 'Ultimo bilancio',
  altro: 'Altro documento',
} as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;
export const documentUploadSchema = z.object({
  tipo: z.enum(Object.keys(DOCUMENT_TYPES) as [DocumentType, ...DocumentType[]], { error: 'Scegli il tipo di documento' }),
  riferimento: z.preprocess(blank, z.string().max(64).optional()),
});

/** Accepted uploads, by sniffed type. */
export const ACCEPTED_MIME = ['application/pdf', 'image/jpeg', 'image/png'] as const;

export interface RequiredDocument { tipo: DocumentType; riferimento: string; descrizione: string; step: 3 | 4 }

/** The documents a subject type requires; beneficial owners each need an identity document. */
export function requiredDocuments(subjectType: SubjectType | null, ubo: { id?: string; nome?: string; cognome?: string }[] = []): RequiredDocument[] {
  if (!subjectType) return [];
  const id: RequiredDocument = { tipo: 'documento_identita', riferimento: 'soggetto', descrizione: subjectType === 'societa' ? 'Documento d\'identità del legale rappresentante' : 'Documento d\'identità', step: 3 };
  const docs: RequiredDocument[] = [id];
  if (subjectType !== 'persona_fisica') docs.push({ tipo: 'visura_camerale', riferimento: 'soggetto', descrizione: 'Visura camerale (non più vecchia di 6 mesi)', step: 4 });
  if (subjectType === 'societa') {
    docs.push({ tipo: 'atto_costitutivo', riferimento: 'soggetto', descrizione: 'Atto costitutivo e statuto vigente', step: 4 });
    for (const u of ubo) if (u.id) docs.push({ tipo: 'documento_identita', riferimento: u.id, descrizione: `Documento d'identità del titolare effettivo ${[u.nome, u.cognome].filter(Boolean).join(' ')}`.trim(), step: 3 });
  }
  return docs;
}

/** Which wizard steps apply to a subject type (0 type, 1 data, 2 owners, 3 identity docs, 4 company docs, 5 CDD, 6 countries, 7 travel rule, 8 summary). */
export function applicableSteps(subjectType: SubjectType | null): number[] {
  if (subjectType === 'societa') return [0, 1, 2, 3, 4, 5, 6, 7, 8];
  if (subjectType === 'ditta_individuale') return [0, 1, 3, 4, 5, 6, 7, 8];
  return [0, 1, 3, 5, 6, 7, 8];
}

export const magicLinkRequestSchema = z.object({
  email: email(),
  cod_azienda: z.preprocess(blank, z.string().max(32).optional()),
  case_id: refersTo('pratica_onboarding', z.uuid().optional()),
});

export const startCaseSchema = z.object({
  email: email(),
  privacy: bool().refine((v) => v, 'Per proseguire devi prendere visione dell\'informativa privacy'),
  subject_type: z.enum(SUBJECT_TYPES).optional(),
});

export const reasonSchema = z.object({ reason: text(2000) });
export const messageSchema = z.object({ message: text(4000) });
export const noteSchema = z.object({ note: opt(2000) });
