import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../../config';
import { testo, testoOpzionale } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { checkAteco } from './ateco';
import { MAX_VOLUME_EUR } from './records.declared';
import { CODICE_ESTERNO_MESSAGE, EXTERNAL_CODE_PATTERN } from './records.external-code';
import { normaliseTaxId } from './tax-id';
import { customersList, documentsList, linksList, ownersList, relationshipsList } from './records.lists';
import {
  CLASSI_RISCHIO, FONTI, RUOLI_RAPPORTO, STATI_ANAGRAFE, STATI_DOCUMENTO, STATI_RAPPORTO, TIPI_CONTROLLO, TIPI_DOCUMENTO, TIPI_LEGAME,
  TIPI_SOGGETTO, USI_CONTANTI,
} from './records.vocabulary';
import { refersTo } from '../../db/references';

/** The records API's bodies and queries (Italian messages named by field) and its answers. */

const ISO2 = new Set((JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'iso3166-alpha2.json'), 'utf8')) as { codes: string[] }).codes);

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const country = (message = 'Indica un paese valido (codice ISO a due lettere, es. IT)') =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v), z.string().refine((c) => ISO2.has(c), message).optional());
const isoDate = (message = 'Data non valida (AAAA-MM-GG)') =>
  z.preprocess(blank, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message, abort: true }).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), message).optional());
const pastDate = (message: string) => isoDate().refine((d) => d === undefined || Date.parse(`${d}T00:00:00Z`) <= Date.now(), message);
/** A record's code (ANA-000001, RAP-000001): letters, digits, dots, dashes, underscores. */
const code = (message: string) => z.string({ message }).trim().min(1, message).max(64, message).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, message);
/** A tax id as typed: spaces, dots and dashes go before its length is checked (its check characters are the command's). */
const taxId = (max: number) => z.preprocess((v) => (typeof v === 'string' ? normaliseTaxId(v) || undefined : v),
  z.string().max(max, `Massimo ${max} caratteri`).regex(/^[A-Z0-9]+$/, 'Usa solo lettere e cifre').optional());
const enumOf = <T extends readonly [string, ...string[]]>(values: T, message: string) => z.enum(values, { message });
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(blank, z.enum(values, { message }).optional());
const bool = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : blank(v)), z.boolean({ message: 'Indica sì o no' }).optional());

/** The customer's code in the source system (records.external-code.ts). */
const codiceEsterno = () => z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v),
  z.string({ message: CODICE_ESTERNO_MESSAGE }).regex(EXTERNAL_CODE_PATTERN, CODICE_ESTERNO_MESSAGE).optional());
const ateco = z.preprocess(blank, z.string({ message: 'Indica il codice ATECO' }).transform((v, ctx) => {
  const r = checkAteco(v);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
  return r.ok ? r.value : v;
}).optional());
/** Euro with up to two decimals, as a number or as typed ("1.234,56", "1234.56"). */
const VOLUME_MESSAGE = 'Indica un importo in euro (es. 2500 o 2.500,00)';
const euro = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const s = v.trim().replace(/\s|€/g, '');
  if (!s) return undefined;
  // A dot before groups of three digits is the thousands' (2.500 is two thousand five hundred), as Italians write.
  const n = s.includes(',') || /^\d{1,3}(\.\d{3})+$/.test(s) ? s.replace(/\./g, '').replace(',', '.') : s;
  return /^\d{1,13}(\.\d{1,2})?$/.test(n) ? Number(n) : v;
}, z.number({ message: VOLUME_MESSAGE }).min(0, 'L\'importo non può essere negativo').max(MAX_VOLUME_EUR, 'Importo troppo grande')
  .refine((x) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-6, 'Al massimo due decimali').optional());

const addressSchema = z.object({
  via: testoOpzionale({ max: 200 }), civico: testoOpzionale({ max: 20 }), cap: testoOpzionale({ max: 20 }), citta: testoOpzionale({ max: 100 }),
  provincia: testoOpzionale({ max: 50 }), paese: country(),
}).strict();

/** What a create and an update share: every field optional here, the create's rules below. */
const customerShape = {
  denominazione: testoOpzionale({ max: 200 }),
  nome: testoOpzionale({ max: 100 }),
  cognome: testoOpzionale({ max: 100 }),
  codice_fiscale: taxId(16),
  partita_iva: taxId(13),
  codice_fiscale_estero: taxId(40),
  paese_fiscale: country('Indica il paese del codice fiscale estero (codice ISO a due lettere)'),
  data_nascita: pastDate('La data di nascita non può essere nel futuro'),
  luogo_nascita: testoOpzionale({ max: 100 }),
  nazionalita: country(),
  paese_residenza: country(),
  indirizzo: addressSchema.optional(),
  email: z.preprocess(blank, z.email({ message: 'Indirizzo e-mail non valido' }).max(200).optional()),
  telefono: z.preprocess(blank, z.string().trim().regex(/^\+?[0-9 ().-]{6,25}$/, 'Numero di telefono non valido').optional()),
  attivita: testoOpzionale({ max: 200 }),
  pep: bool,
  classe_rischio: optionalEnum(CLASSI_RISCHIO, 'Scegli una classe di rischio valida'),
  punteggio_rischio: z.preprocess(blank, z.coerce.number({ message: 'Punteggio non valido' }).int('Punteggio non valido').min(0, 'Punteggio non valido').max(1000, 'Punteggio non valido').optional()),
  codice_esterno: codiceEsterno(),
  ateco,
  professione: testoOpzionale({ max: 200 }),
  data_onboarding: pastDate('La data di inizio del rapporto non può essere nel futuro'),
  volume_mensile_atteso_eur: euro,
  uso_contanti_atteso: optionalEnum(USI_CONTANTI, 'Scegli l\'uso del contante atteso: nessuno, basso, medio o alto'),
};

export const createCustomerSchema = z.object({
  tipo_soggetto: enumOf(TIPI_SOGGETTO, 'Scegli il tipo di soggetto: persona fisica, ditta individuale o società'),
  ...customerShape,
  stato: optionalEnum(['attivo', 'sospeso', 'cessato'] as const, 'Scegli uno stato valido'),
}).strict().superRefine((v, ctx) => {
  if (v.tipo_soggetto === 'societa' && !v.denominazione) ctx.addIssue({ code: 'custom', path: ['denominazione'], message: 'Indica la denominazione della società' });
  if (v.tipo_soggetto === 'ditta_individuale' && !v.denominazione) ctx.addIssue({ code: 'custom', path: ['denominazione'], message: 'Indica la denominazione della ditta' });
  if (v.tipo_soggetto !== 'societa') {
    if (!v.nome) ctx.addIssue({ code: 'custom', path: ['nome'], message: 'Indica il nome' });
    if (!v.cognome) ctx.addIssue({ code: 'custom', path: ['cognome'], message: 'Indica il cognome' });
  }
  if (v.tipo_soggetto === 'ditta_individuale' && !v.partita_iva) ctx.addIssue({ code: 'custom', path: ['partita_iva'], message: 'Indica la partita IVA della ditta' });
  if (v.tipo_soggetto === 'persona_fisica' && v.partita_iva) ctx.addIssue({ code: 'custom', path: ['partita_iva'], message: 'Una persona fisica non ha partita IVA: registrala come ditta individuale' });
});
export type CreateCustomerBody = z.infer<typeof createCustomerSchema>;

export const updateCustomerSchema = z.object({
  ...customerShape,
  stato: optionalEnum(['attivo', 'sospeso', 'cessato'] as const, 'Scegli uno stato valido'),
  /** The version the caller edited: another change since then is a 409. */
  versione: z.preprocess(blank, z.coerce.number({ message: 'Versione non valida' }).int('Versione non valida').min(1, 'Versione non valida').optional()),
}).strict();
export type UpdateCustomerBody = z.infer<typeof updateCustomerSchema>;

export const deleteCustomerSchema = z.object({
  motivo: testo({ max: 2_000, min: 3, multiline: true, vuoto: 'Indica il motivo dell\'eliminazione' }),
}).strict();

export const customerReadQuery = z.object({
  al: isoDate('Indica la data come AAAA-MM-GG'),
});

export const listCustomersQuery = z.object({
  tipo: optionalEnum(TIPI_SOGGETTO, 'Tipo di soggetto non valido'),
  classe_rischio: optionalEnum(CLASSI_RISCHIO, 'Classe di rischio non valida'),
  stato: optionalEnum(STATI_ANAGRAFE, 'Stato non valido'),
  pep: bool,
  paese: country(),
  codice_esterno: codiceEsterno(),
  q: testoOpzionale({ max: 200 }),
  ...listParamsShape(customersList),
});

export const createRapportoSchema = z.object({
  cod_anagrafe: refersTo('soggetto', code('Indica il soggetto intestatario')),
  tipo: testo({ max: 100, vuoto: 'Indica il tipo di rapporto' }),
  stato: optionalEnum(STATI_RAPPORTO, 'Scegli uno stato valido'),
  data_apertura: isoDate(),
  data_chiusura: isoDate(),
  scopo: testoOpzionale({ max: 500 }),
  natura: testoOpzionale({ max: 200 }),
  soggetti: z.array(z.object({
    cod_anagrafe: refersTo('soggetto', code('Indica il soggetto')),
    ruolo: enumOf(RUOLI_RAPPORTO.filter((r) => r !== 'intestatario') as unknown as readonly ['cointestatario', ...string[]], 'Scegli un ruolo valido: cointestatario, esecutore, delegato o titolare effettivo'),
  }).strict()).max(50, 'Al massimo 50 soggetti').optional(),
}).strict();

export const closeRapportoSchema = z.object({ data_chiusura: isoDate() }).strict();

export const listRapportiQuery = z.object({
  cod_anagrafe: z.preprocess(blank, code('Codice non valido').optional()),
  stato: optionalEnum(STATI_RAPPORTO, 'Stato non valido'),
  tipo: testoOpzionale({ max: 100 }),
  ...listParamsShape(relationshipsList),
});

const percentuale = z.preprocess(blank, z.coerce.number({ message: 'Percentuale non valida' })
  .min(0, 'La percentuale è tra 0 e 100').max(100, 'La percentuale è tra 0 e 100').optional());

export const createLegameSchema = z.object({
  cod_anagrafe_da: refersTo('soggetto', code('Indica il primo soggetto')),
  cod_anagrafe_a: refersTo('soggetto', code('Indica il soggetto collegato')),
  tipo: enumOf(TIPI_LEGAME, 'Scegli un tipo di legame valido'),
  percentuale,
  tipo_controllo: optionalEnum(TIPI_CONTROLLO, 'Scegli un tipo di controllo valido'),
  dal: isoDate(),
  al: isoDate(),
  fonte: optionalEnum(FONTI, 'Fonte non valida'),
  note: testoOpzionale({ max: 2_000, multiline: true }),
}).strict();

export const createUboSchema = z.object({
  cod_anagrafe: refersTo('soggetto', code('Indica la società o l\'ente')),
  cod_anagrafe_titolare: refersTo('soggetto', code('Indica il titolare effettivo')),
  percentuale,
  tipo_controllo: enumOf(TIPI_CONTROLLO, 'Scegli come è esercitato il controllo: proprietà diretta, indiretta, controllo o rappresentanza'),
  dal: isoDate(),
  al: isoDate(),
  fonte: optionalEnum(FONTI, 'Fonte non valida'),
  note: testoOpzionale({ max: 2_000, multiline: true }),
}).strict();

export const listLegamiQuery = z.object({
  cod_anagrafe: z.preprocess(blank, code('Codice non valido').optional()),
  cod_anagrafe_da: z.preprocess(blank, code('Codice non valido').optional()),
  cod_anagrafe_a: z.preprocess(blank, code('Codice non valido').optional()),
  tipo: optionalEnum(TIPI_LEGAME, 'Tipo di legame non valido'),
  ...listParamsShape(linksList),
});

export const listUboQuery = z.object({
  cod_anagrafe: z.preprocess(blank, code('Codice non valido').optional()),
  titolare: z.preprocess(blank, code('Codice non valido').optional()),
  ...listParamsShape(ownersList),
});

export const createDocumentoSchema = z.object({
  cod_anagrafe: refersTo('soggetto', code('Indica il soggetto')),
  tipo: enumOf(TIPI_DOCUMENTO, 'Scegli un tipo di documento valido'),
  numero: testoOpzionale({ max: 50 }),
  autorita_rilascio: testoOpzionale({ max: 200 }),
  paese_rilascio: country(),
  data_rilascio: isoDate(),
  data_scadenza: isoDate(),
  stato: optionalEnum(['valido', 'sostituito'] as const, 'Stato non valido'),
}).strict().superRefine((v, ctx) => {
  const identity = ['carta_identita', 'passaporto', 'patente', 'permesso_soggiorno'].includes(v.tipo);
  if (identity && !v.numero) ctx.addIssue({ code: 'custom', path: ['numero'], message: 'Indica il numero del documento' });
  if (identity && !v.data_scadenza) ctx.addIssue({ code: 'custom', path: ['data_scadenza'], message: 'Indica la data di scadenza del documento' });
});

export const listDocumentiQuery = z.object({
  cod_anagrafe: z.preprocess(blank, code('Codice non valido').optional()),
  tipo: optionalEnum(TIPI_DOCUMENTO, 'Tipo di documento non valido'),
  stato: optionalEnum(STATI_DOCUMENTO, 'Stato non valido'),
  ...listParamsShape(documentsList),
});

// Answers

const nullableString = z.string().nullable();
export const customerRecord = z.object({
  cod_anagrafe: z.string(), tipo_soggetto: z.string(), denominazione: z.string(), nome: nullableString, cognome: nullableString,
  codice_fiscale: nullableString, partita_iva: nullableString, codice_fiscale_estero: nullableString, paese_fiscale: nullableString,
  data_nascita: nullableString, nazionalita: nullableString, paese_residenza: nullableString, pep: z.boolean(),
  classe_rischio: nullableString, punteggio_rischio: z.number().nullable(), stato: z.string(), versione: z.number().int(),
  codice_esterno: nullableString, created_at: z.string(), updated_at: z.string(),
});
/** The fields monitoring reads (docs/monitoring.md, part 0): older versions' snapshots lack them. */
const declaredShape = {
  ateco: nullableString, professione: nullableString, data_onboarding: nullableString, volume_mensile_atteso_eur: z.number().nullable(),
  uso_contanti_atteso: nullableString,
};
export const customerFull = customerRecord.extend({
  luogo_nascita: nullableString, indirizzo: z.record(z.string(), z.unknown()).nullable(), email: nullableString, telefono: nullableString,
  attivita: nullableString, ruolo: z.string(), chiave_fiscale: nullableString, onboarding_case_id: nullableString, created_by: z.string(),
  updated_by: nullableString, eliminato_at: nullableString, eliminato_da: nullableString, motivo_eliminazione: nullableString,
  ...declaredShape,
});
export const customerListResponse = listResponse(customerRecord);

export const rapportoRecord = z.object({
  cod_rapporto: z.string(), cod_anagrafe: z.string(), tipo: z.string(), stato: z.string(), data_apertura: z.string(), data_chiusura: nullableString,
  scopo: nullableString, natura: nullableString, onboarding_case_id: nullableString, created_by: z.string(), created_at: z.string(), updated_at: z.string(),
});
const ruoloRecord = z.object({ id: z.string(), cod_anagrafe: z.string(), ruolo: z.string(), dal: z.string(), al: nullableString, fonte: z.string() });
export const rapportoWithRoles = rapportoRecord.extend({ ruoli: z.array(ruoloRecord) });
export const rapportiListResponse = listResponse(rapportoRecord);

export const legameRecord = z.object({
  id: z.string(), cod_anagrafe_da: z.string(), cod_anagrafe_a: z.string(), tipo: z.string(), percentuale: z.number().nullable(),
  tipo_controllo: nullableString, dal: nullableString, al: nullableString, fonte: z.string(), note: nullableString, created_by: z.string(), created_at: z.string(),
});
export const legamiListResponse = listResponse(legameRecord);
export const uboRecord = z.object({
  id: z.string(), cod_anagrafe: z.string(), cod_anagrafe_titolare: z.string(), percentuale: z.number().nullable(), tipo_controllo: nullableString,
  dal: nullableString, al: nullableString, fonte: z.string(), note: nullableString, created_by: z.string(), created_at: z.string(),
});
export const uboListResponse = listResponse(uboRecord);

export const documentoRecord = z.object({
  id: z.string(), cod_anagrafe: z.string(), tipo: z.string(), numero: nullableString, autorita_rilascio: nullableString, paese_rilascio: nullableString,
  data_rilascio: nullableString, data_scadenza: nullableString, stato: z.string(), sha256: nullableString, nome_file: nullableString, mime: nullableString,
  created_by: z.string(), created_at: z.string(), updated_at: z.string(),
});
export const documentiListResponse = listResponse(documentoRecord);

const subjectRef = z.object({ cod_anagrafe: z.string(), denominazione: z.string(), tipo_soggetto: z.string(), pep: z.boolean(), stato: z.string() });
const versionRecord = z.object({
  versione: z.number().int(), operazione: z.string(), changed_at: z.string(), changed_by: z.string(),
  campi: z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() })),
});

/** The customer file: the record with its relationships (and the role on each), links both ways, owners, documents and versions. */
export const customerDetailResponse = customerFull.extend({
  rapporti: z.array(rapportoRecord.extend({ ruolo: z.string(), ruolo_dal: z.string(), ruolo_al: nullableString })),
  legami: z.array(legameRecord.extend({ direzione: z.enum(['uscente', 'entrante']), soggetto: subjectRef })),
  titolari_effettivi: z.array(uboRecord.extend({ titolare: subjectRef })),
  documenti: z.array(documentoRecord),
  versioni: z.array(versionRecord),
});

/** The record as it was on a date (`?al=`): the version's snapshot. */
export const customerAsOfResponse = z.object({
  al: z.string(), versione: z.number().int(), changed_at: z.string(), changed_by: z.string(),
  record: customerFull.omit({ eliminato_at: true, eliminato_da: true, motivo_eliminazione: true, updated_by: true, chiave_fiscale: true, codice_esterno: true })
    .extend({
      eliminato_at: nullableString.optional(), eliminato_da: nullableString.optional(), motivo_eliminazione: nullableString.optional(), updated_by: nullableString.optional(),
      chiave_fiscale: nullableString.optional(), codice_esterno: nullableString.optional(),
      ...Object.fromEntries(Object.entries(declaredShape).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof declaredShape]: z.ZodOptional<(typeof declaredShape)[K]> },
    }),
});

export const customerWriteResponse = customerFull.extend({
  campi_modificati: z.array(z.string()).optional(),
  rescreen: z.object({ eseguito: z.boolean(), corrispondenze_nuove: z.number().int() }).nullable().optional(),
});
