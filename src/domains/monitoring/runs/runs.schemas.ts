import { z } from 'zod';
import { dayField } from '../../../http/day-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import { RUN_STATI, RUN_TIPI } from '../../../../workflows/monitoring-runs/monitoring-runs.contract';
import { monitoringRunsList } from './runs.list';

const empty = z.literal('').transform(() => undefined);
export const day = (what: string) => dayField(what)
  .refine((v) => v >= '2000-01-01' && v <= '2099-12-31', `${what}: tra il 2000 e il 2099`);

/** The longest period a replay or a backtest covers in one run (the engine reads each customer's history in memory). */
export const MAX_RUN_DAYS = 731;

export const listRunsQuery = z.object({
  tipo: z.enum(RUN_TIPI, { message: 'Tipo: giornaliero, replay o backtest' }).optional().or(empty),
  stato: z.enum(RUN_STATI, { message: 'Stato non valido' }).optional().or(empty),
  ...listParamsShape(monitoringRunsList),
});
export type ListRunsQuery = z.infer<typeof listRunsQuery>;

const period = { dal: day('Dal'), al: day('Al') };
const checkPeriod = (b: { dal?: string; al?: string }, ctx: z.RefinementCtx) => {
  if (!b.dal || !b.al) return;
  if (b.dal > b.al) { ctx.addIssue({ code: 'custom', path: ['al'], message: 'La data finale precede quella iniziale' }); return; }
  const days = (Date.parse(`${b.al}T00:00:00Z`) - Date.parse(`${b.dal}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_RUN_DAYS) ctx.addIssue({ code: 'custom', path: ['al'], message: `Al massimo ${MAX_RUN_DAYS} giorni per esecuzione` });
};

/** POST /api/monitoring/replay: the active rules over a stored period. */
export const startReplaySchema = z.object(period).superRefine(checkPeriod);
export type StartReplayInput = z.infer<typeof startReplaySchema>;

/** POST /api/monitoring/rules/:id/backtest: the draft over a period (default: the last year up to yesterday). */
export const startBacktestSchema = z.object({ dal: period.dal.optional().or(empty), al: period.al.optional().or(empty) }).superRefine(checkPeriod);
export type StartBacktestInput = z.infer<typeof startBacktestSchema>;

/** POST /api/monitoring/daily: the daily batch of one day again (an operator's catch-up). */
export const startDailySchema = z.object({ giorno: day('Giorno') });

export const runRecord = z.object({
  id: z.string(), cod_azienda: z.string(), tipo: z.enum(RUN_TIPI), stato: z.enum(RUN_STATI), giorno: z.string().nullable(), dal: z.string(), al: z.string(),
  versione_id: z.string().nullable(), versione_hash: z.string().nullable(), attiva_id: z.string().nullable(), totale: z.number(), elaborati: z.number(),
  eventi: z.number(), decisioni: z.number(), alert_nuovi: z.number(), alert_aggiornati: z.number(), riepilogo: z.record(z.string(), z.unknown()),
  errore: z.string().nullable(), workflow_id: z.string(), avviata_da: z.string(), created_at: z.string(), updated_at: z.string(), finished_at: z.string().nullable(),
});
export const runListResponse = listResponse(runRecord);
