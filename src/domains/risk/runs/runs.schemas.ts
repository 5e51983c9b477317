import { z } from 'zod';
import { listParamsShape, listResponse } from '../../../kit/list';
import { RISK_RUN_STATI, RISK_RUN_TIPI } from '../../../../workflows/risk/risk-portfolio.contract';
import { CLASSI } from '../risk.types';
import { riskRunResultsList, riskRunsList } from './runs.list';
import { refersTo } from '../../../db/references';

const blank = z.literal('').transform(() => undefined);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const startRunSchema = z.object({
  tipo: z.enum(RISK_RUN_TIPI, { message: 'Tipo non valido: ricalcolo o simulazione' }),
  /** The version to run; a recalculation may omit it (the active version). */
  versione_id: refersTo('rischio_versione', z.union([z.uuid({ message: 'Versione non valida' }), z.literal('')]).optional().nullable().transform((v) => v || null)),
});

export const listRunsQuery = z.object({
  tipo: z.enum(RISK_RUN_TIPI).optional().or(blank),
  stato: z.enum(RISK_RUN_STATI).optional().or(blank),
  ...listParamsShape(riskRunsList),
});

export const listRunResultsQuery = z.object({
  cambia: bool.optional().or(blank),
  classe: z.enum(CLASSI, { message: 'Classe non valida' }).optional().or(blank),
  classe_attuale: z.enum([...CLASSI, 'nessuna'], { message: 'Classe non valida' }).optional().or(blank),
  ...listParamsShape(riskRunResultsList),
});

const counts = z.record(z.string(), z.number().int());
export const riepilogoSchema = z.object({
  prima: counts, dopo: counts, matrice: z.record(z.string(), counts), salite: z.number().int(), discese: z.number().int(),
  valutazioni_avviate: z.number().int().optional(), avvii_falliti: z.number().int().optional(),
});

export const runResponse = z.object({
  id: z.string(),
  tipo: z.enum(RISK_RUN_TIPI),
  versione_id: z.string(),
  versione: z.number().int().nullable().optional(),
  stato: z.enum(RISK_RUN_STATI),
  totale: z.number().int().nullable(),
  elaborati: z.number().int(),
  cambi: z.number().int(),
  riepilogo: riepilogoSchema,
  errore: z.string().nullable(),
  started_by: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  workflow_id: z.string(),
  workflow_url: z.string(),
});

export const runListResponse = listResponse(runResponse);

export const runResultResponse = z.object({
  cod_anagrafe: z.string(),
  denominazione: z.string(),
  punteggio: z.number().int(),
  classe: z.enum(CLASSI),
  punteggio_attuale: z.number().int().nullable(),
  classe_attuale: z.enum(CLASSI).nullable(),
  cambia: z.boolean(),
  differenze: z.array(z.object({ codice: z.string(), nome: z.string(), prima: z.number().nullable(), dopo: z.number().nullable() })),
});
export const runResultsResponse = listResponse(runResultResponse);
