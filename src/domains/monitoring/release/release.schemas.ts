import { z } from 'zod';
import { testo, testoOpzionale } from '../../../http/text-field';

const gate = { ok: z.boolean(), motivo: z.string() };
export const gatesSchema = z.object({
  versione_id: z.string(), regola_id: z.string(), cod_regola: z.string(), nome: z.string(), versione: z.number(), hash: z.string(),
  backtest: z.object({ ...gate, esecuzione_id: z.string().nullable(), stato: z.string().nullable(), dal: z.string().nullable(), al: z.string().nullable() }),
  volume: z.object({
    ...gate, alert_bozza: z.number().nullable(), alert_attiva: z.number().nullable(), minimo: z.number().nullable(), massimo: z.number().nullable(),
    regola_nuova: z.boolean(), tolleranza_percento: z.number(),
  }),
  approvazione: z.object({ ...gate, stato: z.enum(['non_richiesta', 'in_attesa', 'attivata', 'respinta']), richiesto_da: z.string().nullable(), deciso_da: z.string().nullable() }),
  pronta: z.boolean(),
});

export const releaseRecord = z.object({
  id: z.string(), regola_id: z.string(), stato: z.enum(['in_attesa', 'attivata', 'respinta']), versione_hash: z.string(), richiesto_da: z.string(),
  richiesto_da_username: z.string(), richiesto_at: z.string(), motivazione: z.string().nullable(), deciso_da: z.string().nullable(),
  deciso_at: z.string().nullable(), motivazione_decisione: z.string().nullable(), workflow_id: z.string(),
});
export const releaseViewResponse = z.object({ rilascio: releaseRecord.nullable(), cancelli: gatesSchema });
export const releaseGatesResponse = z.object({ items: z.array(gatesSchema) });

export const requestReleaseSchema = z.object({ motivazione: testoOpzionale({ max: 2_000, multiline: true }) });
export const approveReleaseSchema = z.object({ motivazione: testoOpzionale({ max: 2_000, multiline: true }) });
export const rejectReleaseSchema = z.object({ motivazione: testo({ max: 2_000, multiline: true, vuoto: 'Indica perché la messa in vigore è respinta' }) });
