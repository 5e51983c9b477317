import { z } from 'zod';
import { dayField } from '../../../http/day-field';
import { refersTo } from '../../../db/references';
import { testo, testoOpzionale } from '../../../http/text-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import { CASE_PRIORITA } from '../../../../workflows/case/case.contract';
import { ALERT_STATES, DISPOSIZIONI, ORIGINI } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { TIPOLOGIE } from '../monitoring.typologies';
import { alertsList } from './alerts.list';

const empty = z.literal('').transform(() => undefined);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const day = dayField;
const code = (max: number, what: string) => z.string().trim().min(1, `Indica ${what}`).max(max, `${what}: al massimo ${max} caratteri`);

export const listAlertsQuery = z.object({
  stato: z.enum(ALERT_STATES).optional().or(empty),
  tipologia: z.enum(TIPOLOGIE).optional().or(empty),
  cod_regola: code(64, 'il codice della regola').optional().or(empty),
  cod_anagrafe: code(64, 'il codice del cliente').optional().or(empty),
  assegnatario: z.union([z.uuid({ message: 'Assegnatario non valido' }), z.literal('me')]).optional().or(empty),
  origine: z.enum(ORIGINI).optional().or(empty),
  dal: day('Dal').optional().or(empty),
  al: day('Al').optional().or(empty),
  aperti: bool.optional().or(empty),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(alertsList),
}).superRefine((q, ctx) => {
  if (q.dal && q.al && q.dal > q.al) ctx.addIssue({ code: 'custom', path: ['al'], message: 'La data finale precede quella iniziale' });
});
export type ListAlertsQuery = z.infer<typeof listAlertsQuery>;

export const assignAlertSchema = z.object({
  assegnatario: refersTo('utente', z.uuid({ message: 'Scegli un assegnatario valido' })),
});

export const closeAlertSchema = z.object({
  disposizione: z.enum(DISPOSIZIONI, { message: 'Scegli la disposizione: falso positivo, giustificato o sospetto' }),
  motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica la motivazione della chiusura' }),
});

export const escalateAlertSchema = z.object({
  motivazione: testoOpzionale({ max: 5_000, multiline: true }),
  priorita: z.enum(CASE_PRIORITA, { message: 'Priorità: bassa, media, alta o critica' }).optional().or(empty),
});

export const reopenAlertSchema = z.object({
  motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica perché la chiusura proposta è respinta' }),
});

export const deleteAlertSchema = z.object({
  motivazione: testo({ max: 2_000, multiline: true, vuoto: 'Indica perché l\'alert viene eliminato' }),
});

/** An alert made by hand on a customer, with the operations the analyst picked. */
export const createAlertSchema = z.object({
  cod_anagrafe: refersTo('cliente', code(64, 'il cliente')),
  cod_rapporto: refersTo('rapporto', code(64, 'il rapporto').optional().or(empty)),
  tipologia: z.enum(TIPOLOGIE, { message: 'Scegli una tipologia valida' }),
  punteggio: z.coerce.number({ message: 'Indica il punteggio: un numero intero' }).int('Indica il punteggio: un numero intero')
    .min(0, 'Il punteggio va da 0 a 100').max(100, 'Il punteggio va da 0 a 100'),
  motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Descrivi perché apri l\'alert' }),
  movimenti: z.array(refersTo('movimento', z.uuid({ message: 'Movimento non valido' })), { message: 'Indica un elenco di movimenti' }).max(200, 'Al massimo 200 movimenti').optional().default([]),
  finestra_da: day('Inizio del periodo').optional().or(empty),
  finestra_a: day('Fine del periodo').optional().or(empty),
}).superRefine((b, ctx) => {
  if (b.finestra_da && b.finestra_a && b.finestra_da > b.finestra_a) ctx.addIssue({ code: 'custom', path: ['finestra_a'], message: 'La fine del periodo precede il suo inizio' });
});
export type CreateAlertInput = z.infer<typeof createAlertSchema>;

export const alertRecordSchema = z.object({
  id: z.string(), cod_alert: z.string(), cod_azienda: z.string(), cod_anagrafe: z.string(), cod_rapporto: z.string().nullable(),
  cod_regola: z.string().nullable(), versione: z.number().nullable(), tipologia: z.string(), origine: z.enum(ORIGINI), stato: z.enum(ALERT_STATES),
  disposizione: z.enum(DISPOSIZIONI).nullable(), punteggio: z.number(), data_rilevazione: z.string(), finestra_da: z.string(), finestra_a: z.string(),
  ultimo_riscontro: z.string(), riscontri: z.number(), assegnatario: z.string().nullable(), cod_caso: z.string().nullable(), sos_suggerita: z.boolean(),
  chiusura_richiesta_da: z.string().nullable(), closed_at: z.string().nullable(), created_at: z.string(), updated_at: z.string(),
  cliente_nome: z.string().nullable(), codice_esterno: z.string().nullable(), regola_nome: z.string().nullable(),
  // The decision that raised it (a KYT alert is named by it: POST /api/kyt/alerts/:codDecisione/escalate).
  cod_decisione: z.string().nullable(),
});
export const alertListResponse = listResponse(alertRecordSchema);

const movementRef = z.object({
  id: z.string(), cod_rapporto: z.string(), data_operazione: z.string(), importo: z.number(), valuta: z.string(), importo_eur: z.number(),
  segno: z.string(), causale: z.string().nullable(), canale: z.string().nullable(), contanti: z.boolean(),
  controparte_nome: z.string().nullable(), controparte_paese: z.string().nullable(),
});
const hitRecord = z.object({
  chiave: z.string(), origine: z.string(), versione: z.number().nullable(), punteggio: z.number(), data_rilevazione: z.string(),
  finestra_da: z.string(), finestra_a: z.string(), cod_decisione: z.string().nullable(),
});

/** The alert as a write or the detail answers it: the record, who acted, the caller's next actions, and what lies behind it. */
export const alertDetailResponse = alertRecordSchema.extend({
  versione_id: z.string().nullable(), chiave_dedup: z.string(), cod_decisione: z.string().nullable(), evidenza: z.record(z.string(), z.unknown()),
  raised_by: z.string(), assigned_by: z.string().nullable(), assigned_at: z.string().nullable(), escalated_by: z.string().nullable(),
  escalated_at: z.string().nullable(), motivazione: z.string().nullable(), chiusura_richiesta_at: z.string().nullable(), closed_by: z.string().nullable(),
  allowed_actions: z.array(z.string()),
  quattro_occhi: z.object({ soglia: z.number(), richiesto_per_archiviazione: z.boolean() }),
  movimenti: z.array(movementRef),
  riscontri_elenco: z.array(hitRecord),
  caso: z.object({ id: z.string(), url: z.string() }).nullable(),
});
