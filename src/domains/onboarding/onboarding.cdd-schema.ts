import { z } from 'zod';
import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';

/**
 * The customer due-diligence questionnaire (art. 18 c.1 lett. c d.lgs. 231/2007: purpose and
 * intended nature of the relationship; art. 24 with Allegato 2 for the enhanced cases).
 * Versioned: answers are stored with the version they were given under, so a later change
 * of questions never reinterprets old answers. A new version is a new entry of CDD_SCHEMAS;
 * an existing one is never edited.
 *
 * `peso` is the number of risk points an answer adds (docs/onboarding-risk.md); for a
 * yes/no question `peso_si` applies when the answer is yes.
 */

export const CDD_SCHEMA_VERSION = 'cdd-2026-1';

export interface CddOption { valore: string; etichetta: string; peso?: number }

export interface CddQuestion {
  id: string;
  etichetta: string;
  tipo: 'scelta' | 'testo' | 'booleano' | 'numero';
  opzioni?: CddOption[];
  obbligatoria: boolean;
  aiuto?: string;
  /** Subject types the question applies to; absent: every type. */
  solo_per?: SubjectType[];
  /** Required only when another question has one of these answers. */
  richiesta_se?: { domanda: string; valori: (string | boolean)[] };
  /** Points when a yes/no question is answered yes. */
  peso_si?: number;
}

export interface CddSchema { versione: string; domande: CddQuestion[] }

const CDD_2026_1: CddQuestion[] = [
  {
    id: 'scopo_rapporto', etichetta: 'Scopo del rapporto', tipo: 'scelta', obbligatoria: true,
    aiuto: 'Per quale ragione principale intendi utilizzare i nostri servizi?',
    opzioni: [
      { valore: 'investimento', etichetta: 'Investimento in cripto-attività', peso: 0 },
      { valore: 'pagamenti', etichetta: 'Pagamenti e trasferimenti', peso: 2 },
      { valore: 'trading', etichetta: 'Compravendita frequente (trading)', peso: 2 },
      { valore: 'custodia', etichetta: 'Custodia di cripto-attività', peso: 0 },
      { valore: 'attivita_impresa', etichetta: 'Incassi e pagamenti dell\'attività d\'impresa', peso: 2 },
      { valore: 'altro', etichetta: 'Altro', peso: 3 },
    ],
  },
  {
    id: 'scopo_dettaglio', etichetta: 'Descrivi lo scopo del rapporto', tipo: 'testo', obbligatoria: false,
    richiesta_se: { domanda: 'scopo_rapporto', valori: ['altro'] },
  },
  {
    id: 'natura_rapporto', etichetta: 'Natura del rapporto', tipo: 'scelta', obbligatoria: true,
    opzioni: [
      { valore: 'continuativo', etichetta: 'Rapporto continuativo', peso: 0 },
      { valore: 'occasionale', etichetta: 'Operazioni occasionali', peso: 2 },
    ],
  },
  {
    id: 'origine_fondi', etichetta: 'Origine dei fondi che utilizzerai', tipo: 'scelta', obbligatoria: true,
    opzioni: [
      { valore: 'reddito_lavoro', etichetta: 'Reddito da lavoro o pensione', peso: 0 },
      { valore: 'reddito_impresa', etichetta: 'Ricavi dell\'attività d\'impresa', peso: 0 },
      { valore: 'risparmi', etichetta: 'Risparmi', peso: 0 },
      { valore: 'investimenti', etichetta: 'Proventi di investimenti', peso: 2 },
      { valore: 'vendita_beni', etichetta: 'Vendita di immobili o altri beni', peso: 2 },
      { valore: 'eredita_donazione', etichetta: 'Eredità o donazione', peso: 3 },
      { valore: 'cripto_attivita', etichetta: 'Cripto-attività già possedute', peso: 3 },
      { valore: 'vincite', etichetta: 'Vincite da gioco', peso: 8 },
      { valore: 'altro', etichetta: 'Altro', peso: 5 },
    ],
  },
  {
    id: 'origine_fondi_dettaglio', etichetta: 'Dettaglio sull\'origine dei fondi', tipo: 'testo', obbligatoria: true,
    aiuto: 'Ad esempio: stipendio da dipendente presso…, vendita dell\'immobile di…, ricavi della vendita di…',
  },
  {
    id: 'volume_annuo', etichetta: 'Volume annuo previsto delle operazioni', tipo: 'scelta', obbligatoria: true,
    opzioni: [
      { valore: 'fino_10k', etichetta: 'Fino a 10.000 €', peso: 0 },
      { valore: '10k_50k', etichetta: 'Da 10.000 € a 50.000 €', peso: 3 },
      { valore: '50k_250k', etichetta: 'Da 50.000 € a 250.000 €', peso: 6 },
      { valore: '250k_1m', etichetta: 'Da 250.000 € a 1.000.000 €', peso: 10 },
      { valore: 'oltre_1m', etichetta: 'Oltre 1.000.000 €', peso: 15 },
    ],
  },
  {
    id: 'operazioni_mensili', etichetta: 'Numero di operazioni previste al mese', tipo: 'numero', obbligatoria: false,
    aiuto: 'Una stima: serve a riconoscere un\'operatività anomala rispetto a quella dichiarata.',
  },
  {
    id: 'contanti', etichetta: 'I fondi provengono in misura rilevante da operatività in contanti?', tipo: 'booleano', obbligatoria: true, peso_si: 8,
  },
  {
    id: 'paesi_alto_rischio', etichetta: 'Operi con paesi terzi ad alto rischio o sottoposti a sanzioni?', tipo: 'booleano', obbligatoria: true, peso_si: 12,
    aiuto: 'Paesi dell\'elenco del Regolamento delegato (UE) 2016/1675 o soggetti a misure restrittive dell\'Unione.',
  },
  {
    id: 'attivita_cripto', etichetta: 'Attività svolta in cripto-attività', tipo: 'scelta', obbligatoria: true,
    opzioni: [
      { valore: 'nessuna', etichetta: 'Nessuna oltre all\'uso di questo servizio', peso: 0 },
      { valore: 'investimento_personale', etichetta: 'Investimento personale', peso: 0 },
      { valore: 'trading_professionale', etichetta: 'Trading professionale', peso: 3 },
      { valore: 'mining_staking', etichetta: 'Mining o staking', peso: 3 },
      { valore: 'servizi_cripto', etichetta: 'Prestazione di servizi per cripto-attività (exchange, custodia, OTC)', peso: 8 },
    ],
  },
  {
    id: 'provenienza_patrimonio', etichetta: 'Provenienza del patrimonio complessivo', tipo: 'scelta', obbligatoria: true,
    solo_per: ['persona_fisica', 'ditta_individuale'],
    opzioni: [
      { valore: 'lavoro', etichetta: 'Lavoro dipendente o autonomo', peso: 0 },
      { valore: 'impresa', etichetta: 'Attività d\'impresa', peso: 0 },
      { valore: 'eredita', etichetta: 'Eredità', peso: 2 },
      { valore: 'investimenti', etichetta: 'Investimenti', peso: 2 },
      { valore: 'vendita_immobili', etichetta: 'Vendita di immobili', peso: 2 },
      { valore: 'altro', etichetta: 'Altro', peso: 4 },
    ],
  },
  {
    id: 'settore', etichetta: 'Settore di attività', tipo: 'scelta', obbligatoria: true,
    solo_per: ['societa', 'ditta_individuale'],
    opzioni: [
      { valore: 'commercio', etichetta: 'Commercio', peso: 0 },
      { valore: 'manifattura', etichetta: 'Manifattura', peso: 0 },
      { valore: 'servizi_professionali', etichetta: 'Servizi professionali', peso: 0 },
      { valore: 'tecnologia', etichetta: 'Tecnologia e software', peso: 0 },
      { valore: 'edilizia', etichetta: 'Edilizia', peso: 4 },
      { valore: 'immobiliare', etichetta: 'Immobiliare', peso: 5 },
      { valore: 'servizi_finanziari', etichetta: 'Servizi finanziari o di pagamento', peso: 5 },
      { valore: 'servizi_cripto', etichetta: 'Servizi per cripto-attività', peso: 8 },
      { valore: 'terzo_settore', etichetta: 'Enti del terzo settore', peso: 4 },
      { valore: 'oro_preziosi', etichetta: 'Compravendita di oro, preziosi o opere d\'arte', peso: 8 },
      { valore: 'gioco', etichetta: 'Gioco e scommesse', peso: 8 },
      { valore: 'armi_difesa', etichetta: 'Armi e difesa', peso: 8 },
      { valore: 'altro', etichetta: 'Altro', peso: 2 },
    ],
  },
];

export const CDD_SCHEMAS: Record<string, CddSchema> = {
  [CDD_SCHEMA_VERSION]: { versione: CDD_SCHEMA_VERSION, domande: CDD_2026_1 },
};

export const isKnownCddVersion = (v: unknown): v is string => typeof v === 'string' && Object.hasOwn(CDD_SCHEMAS, v);
export const UNKNOWN_CDD_VERSION_MESSAGE = 'Versione del questionario non riconosciuta: ricarica la pagina e rispondi alle domande aggiornate';

const appliesTo = (q: CddQuestion, subjectType: SubjectType | null) => !q.solo_per || (!!subjectType && q.solo_per.includes(subjectType));

/** The questions a subject type answers, in the current version (or the one given). */
export function cddSchemaFor(subjectType: SubjectType | null, version: string = CDD_SCHEMA_VERSION): CddSchema {
  const s = CDD_SCHEMAS[version];
  if (!s) throw new Error(`unknown CDD schema version ${version}`);
  return { versione: s.versione, domande: s.domande.filter((q) => appliesTo(q, subjectType)) };
}

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v);
const BOOLS: Record<string, boolean> = { true: true, on: true, '1': true, si: true, 'sì': true, false: false, off: false, '0': false, no: false };

function answerSchema(q: CddQuestion): z.ZodType {
  switch (q.tipo) {
    case 'scelta': {
      const values = (q.opzioni ?? []).map((o) => o.valore) as [string, ...string[]];
      return z.preprocess(blank, z.enum(values, { error: 'Scegli una delle risposte proposte' }));
    }
    case 'booleano':
      return z.preprocess((v) => (typeof v === 'string' ? BOOLS[v.trim().toLowerCase()] ?? (v.trim() === '' ? undefined : v) : v),
        z.boolean({ error: 'Indica sì o no' }));
    case 'numero':
      return z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim().replace(/\./g, '').replace(',', '.'))) : v),
        z.number({ error: 'Indica un numero' }).int('Indica un numero intero').min(0, 'Minimo 0').max(1e9, 'Numero troppo grande'));
    case 'testo':
      return z.preprocess(blank, z.string({ error: 'Campo obbligatorio' }).max(2000, 'Massimo 2000 caratteri'));
  }
}

/**
 * The strict schema of a complete questionnaire: `{ versione, risposte }` with every
 * required answer of the subject type. An unknown version fails with one message on
 * `versione` (the API turns it into a 422).
 */
export function cddAnswersSchema(version: unknown, subjectType: SubjectType | null): z.ZodType<{ versione: string; risposte: Record<string, unknown> }> {
  if (!isKnownCddVersion(version)) {
    return z.object({ versione: z.unknown(), risposte: z.unknown() }).superRefine((_v, ctx) => {
      ctx.addIssue({ code: 'custom', path: ['versione'], message: UNKNOWN_CDD_VERSION_MESSAGE });
    }) as unknown as z.ZodType<{ versione: string; risposte: Record<string, unknown> }>;
  }
  const questions = cddSchemaFor(subjectType, version).domande;
  const shape: Record<string, z.ZodType> = {};
  for (const q of questions) shape[q.id] = q.obbligatoria ? answerSchema(q) : answerSchema(q).optional();
  let risposte: z.ZodType = z.object(shape);
  for (const q of questions) {
    const cond = q.richiesta_se;
    if (!cond) continue;
    // `when`: checked even when other answers are wrong, so every missing answer shows at once.
    risposte = risposte.refine((v) => {
      const r = (v ?? {}) as Record<string, unknown>;
      const a = r[q.id];
      return !cond.valori.includes(r[cond.domanda] as string | boolean) || (a !== undefined && a !== null && !(typeof a === 'string' && a.trim() === ''));
    }, { path: [q.id], message: 'Campo obbligatorio per la risposta data', when: () => true });
  }
  return z.object({
    versione: z.literal(version, { error: UNKNOWN_CDD_VERSION_MESSAGE }),
    risposte,
  }) as unknown as z.ZodType<{ versione: string; risposte: Record<string, unknown> }>;
}

export interface CddWeightedAnswer { domanda: string; etichetta: string; risposta: string; punti: number }

/** The answers that carry risk points, with the question's and answer's labels (for the risk factors). */
export function cddWeights(version: string | null | undefined, subjectType: SubjectType | null, answers: Record<string, unknown> | null | undefined): CddWeightedAnswer[] {
  if (!isKnownCddVersion(version) || !answers) return [];
  const out: CddWeightedAnswer[] = [];
  for (const q of cddSchemaFor(subjectType, version).domande) {
    const a = answers[q.id];
    if (q.tipo === 'scelta') {
      const o = q.opzioni?.find((x) => x.valore === a);
      if (o?.peso) out.push({ domanda: q.id, etichetta: q.etichetta, risposta: o.etichetta, punti: o.peso });
    } else if (q.tipo === 'booleano' && q.peso_si) {
      const yes = a === true || (typeof a === 'string' && BOOLS[a.trim().toLowerCase()] === true);
      if (yes) out.push({ domanda: q.id, etichetta: q.etichetta, risposta: 'Sì', punti: q.peso_si });
    }
  }
  return out;
}

/** The human-readable answer of a question (summary pages and the signing document). */
export function cddAnswerLabel(q: CddQuestion, value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (q.tipo === 'scelta') return q.opzioni?.find((o) => o.valore === value)?.etichetta ?? String(value);
  if (q.tipo === 'booleano') {
    const b = typeof value === 'boolean' ? value : BOOLS[String(value).trim().toLowerCase()];
    return b === undefined ? String(value) : b ? 'Sì' : 'No';
  }
  return String(value);
}
