import { z } from 'zod';
import { CLASSI, FAMIGLIE } from './risk.types';
import { refersTo } from '../../db/references';

/** Response and query schemas of the model's API (/api/risk/factors, rules, rule-sets, policy). */

const classe = z.enum(CLASSI);
const famiglia = z.enum(FAMIGLIE);
const stato = z.enum(['draft', 'active', 'retired']);
const when = z.string().nullable();

export const factorResponse = z.object({
  id: z.string(), codice: z.string(), nome: z.string(), famiglia, descrizione: z.string(), attivo: z.boolean(), regole_attive: z.number().int(),
});
export const factorsResponse = z.object({ items: z.array(factorResponse) });
export const factorsQuery = z.object({
  famiglia: famiglia.optional().or(z.literal('').transform(() => undefined)),
  attivo: z.enum(['true', 'false'], { error: 'attivo: true o false' }).transform((v) => v === 'true').optional(),
});

export const ruleResponse = z.object({
  id: z.string(), versione_id: z.string(), versione: z.number().int(), stato_versione: stato, fattore_id: z.string(), fattore_codice: z.string(), famiglia,
  codice: z.string(), nome: z.string(), descrizione: z.string(), condizione: z.unknown(), condizione_testo: z.string(),
  punti: z.number().int(), classe_minima: classe.nullable(), attiva: z.boolean(), ordine: z.number().int(),
});
export const rulesResponse = z.object({ items: z.array(ruleResponse) });
export const rulesQuery = z.object({ versione_id: z.string().uuid('versione_id: un identificativo di versione').optional() });

const versionMeta = {
  id: z.string(), versione: z.number().int(), stato, descrizione: z.string(), basata_su: z.string().nullable(),
  created_by: z.string(), created_at: z.string(), activated_by: z.string().nullable(), activated_at: when, retired_by: z.string().nullable(), retired_at: when,
  allowed_actions: z.array(z.string()),
};
export const ruleSetSummary = z.object({ ...versionMeta, regole: z.number().int() });
export const ruleSetsResponse = z.object({ items: z.array(ruleSetSummary) });
export const ruleSetResponse = z.object({ ...versionMeta, regole: z.array(ruleResponse.omit({ versione: true, stato_versione: true, condizione_testo: true })) });
export const discardResponse = z.object({ id: z.string(), versione: z.number().int(), scartata: z.literal(true) });

export const thresholdResponse = z.object({
  id: z.string(), classe, punteggio_min: z.number().int(), livello_cdd: z.enum(['semplificata', 'ordinaria', 'rafforzata']), revisione_mesi: z.number().int(),
  approvazione: z.enum(['analyst', 'co', 'co_four_eyes']), descrizione: z.string(),
});
export const thresholdsResponse = z.object({ items: z.array(thresholdResponse) });

// POST /api/risk/policy/evaluate: a partial profile (missing fields take the empty profile's values), optional aggregates.
const country = z.string().trim().regex(/^[A-Za-z]{2}$/, 'Codice ISO di due lettere').transform((s) => s.toUpperCase());
const countries = z.array(country).max(300, 'Al massimo 300 paesi');
const count = z.number().int('Un numero intero').min(0, 'Almeno 0').max(1_000_000, 'Troppo grande');
const text = z.string().max(200, 'Al massimo 200 caratteri');
export const evaluateBody = z.object({
  profilo: z.object({
    cliente: z.object({
      tipo_soggetto: z.enum(['persona_fisica', 'ditta_individuale', 'societa'], { error: 'Tipo di soggetto: persona_fisica, ditta_individuale o societa' }).nullable(),
      pep: z.boolean(), pep_collegati: z.boolean(), attivita: text.nullable(), settore: text.nullable(),
      eta_anni: count.nullable(), anzianita_giorni: count.nullable(),
    }).partial().strict(),
    geografia: z.object({
      nazionalita: country.nullable(), paese_residenza: country.nullable(), paese_fiscale: country.nullable(),
      paesi_operativita: countries, paesi_collegati: countries, paesi: countries, paesi_controparti: countries,
    }).partial().strict(),
    prodotto: z.object({ tipi_rapporto: z.array(text).max(100), rapporti_attivi: count, wallet_self_hosted: count, wallet_sanzionati: count, crypto: z.boolean() }).partial().strict(),
    canale: z.object({ canale: z.enum(['online', 'sportello'], { error: 'Canale: online o sportello' }).nullable(), intermediario: z.boolean() }).partial().strict(),
    screening: z.object({ corrispondenze_aperte: count, corrispondenze_confermate: count }).partial().strict(),
    titolari: z.object({ numero: count, pep: z.boolean() }).partial().strict(),
    dichiarato: z.object({ volume_annuo_eur: z.number().min(0, 'Almeno 0').max(1e13, 'Troppo grande').nullable() }).partial().strict(),
    questionario: z.record(z.string().regex(/^[A-Za-z0-9_]{1,100}$/, 'Domanda: lettere, cifre e _'), z.union([z.string().max(500), z.number(), z.boolean(), z.null(), z.array(z.string().max(100)).max(300)])),
  }).partial().strict().optional().default({}),
  /** Movement aggregates by canonical key (see aggregati_richiesti in the answer); absent ones read as unknown. */
  aggregati: z.record(z.string().max(300), z.number().finite().nullable()).optional().default({}),
  /** Score with this version (a draft, say) instead of the active one. */
  versione_id: refersTo('rischio_versione', z.string().uuid('versione_id: un identificativo di versione').optional()),
  oggi: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (AAAA-MM-GG)').optional(),
});

const lettura = z.object({ path: z.string(), valore: z.unknown() });
export const punteggioResponse = z.object({
  punteggio: z.number(), classe, classe_da_punteggio: classe,
  pavimento: z.object({ regola: z.string(), classe }).nullable(),
  contributi: z.array(z.object({
    regola_id: z.string(), codice: z.string(), nome: z.string(), famiglia, fattore: z.string(), punti: z.number(), classe_minima: classe.nullable(), letti: z.array(lettura),
    spiegazione: z.string(),
  })),
  versione: z.object({ id: z.string(), versione: z.number().int() }),
  probabilita: z.number().int(), impatto: z.number().int(),
  aggregati: z.record(z.string(), z.number().nullable()),
});
export const evaluateResponse = z.object({
  punteggio: punteggioResponse,
  politica: z.object({ classe, livello_cdd: z.string(), revisione_mesi: z.number().int(), approvazione: z.string(), descrizione: z.string() }),
  aggregati_richiesti: z.array(z.string()),
});
