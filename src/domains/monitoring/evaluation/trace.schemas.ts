import { z } from 'zod';
import { decisionAlertSchema } from '../../../kit/evaluators';

/** GET /api/engine/evidence/:codDecisione: one decision's evidence, as the trace page shows it. */
export const decisionTraceResponse = z.object({
  cod_decisione: z.string(),
  giorno: z.string(),
  tipo: z.enum(['evento', 'giornaliera']),
  fonte_evento: z.enum(['movimento', 'kyt']).nullable(),
  evento_id: z.string().nullable(),
  esito: z.enum(['nessuna_anomalia', 'alert', 'blocco']),
  punteggio: z.number(),
  origine: z.enum(['tempo_reale', 'giornaliero']),
  motore: z.string(),
  durata_ms: z.number(),
  created_at: z.string(),
  alert: z.array(decisionAlertSchema),
  cliente: z.object({ cod_anagrafe: z.string(), denominazione: z.string(), codice_esterno: z.string().nullable() }),
  movimento: z.object({
    id: z.string(), cod_rapporto: z.string(), data_operazione: z.string(), importo_eur: z.coerce.number(), segno: z.string(), contanti: z.boolean(),
    causale: z.string().nullable(), controparte_nome: z.string().nullable(), controparte_paese: z.string().nullable(),
  }).nullable(),
  evento_kyt: z.object({
    id: z.string(), cod_evento: z.string(), chain: z.string(), hash: z.string(), direzione: z.string(), indirizzo_da: z.string(), indirizzo_a: z.string(),
    asset: z.string(), importo: z.string(), importo_eur: z.number(), data_ora: z.string(),
  }).nullable(),
  regole: z.array(z.object({
    cod_regola: z.string(), nome: z.string(), versione: z.number(), versione_id: z.string(), tipologia: z.string(), tipologia_nome: z.string(),
    vero: z.boolean(), esito: z.string().nullable(), punteggio: z.number(), cod_rapporto: z.string().nullable(), condizione: z.string().nullable(),
    letti: z.array(z.object({ path: z.string(), descrizione: z.string(), valore: z.unknown(), formato: z.enum(['euro', 'quota']).nullable() })),
    errore: z.object({ codice: z.string(), messaggio: z.string() }).nullable(),
  })),
  versioni_regole: z.record(z.string(), z.number()),
  liste: z.array(z.object({ codice: z.string(), nome: z.string(), versione: z.string() })),
});
