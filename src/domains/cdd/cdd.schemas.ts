import { z } from 'zod';
import { CDD_LIVELLI, CDD_MOTIVI } from '../../../workflows/cdd/cdd-task.contract';
import { CDD_TASK_ACTIONS, CDD_TASK_STATES } from '../../../workflows/cdd/cdd-task.machine';
import { testo, testoOpzionale } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { cddReviewsList } from './cdd-review.list';
import { cddTasksList } from './cdd-task.list';
import { KYC_SUBJECT_TYPES } from './kyc-template.types';
import { refersTo } from '../../db/references';

const nota = testoOpzionale({ max: 5_000, multiline: true });
const empty = z.literal('').transform(() => undefined);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const initiateCddSchema = z.object({
  motivo: z.enum(CDD_MOTIVI, { message: 'Scegli un motivo valido' }).default('manuale'),
  nota,
});

export const transitionCddSchema = z.object({
  azione: z.enum(CDD_TASK_ACTIONS, { message: `Azione non valida: ${CDD_TASK_ACTIONS.join(', ')}` }),
  nota,
});

export const completeCddSchema = z.object({ nota });

export const abstentionSchema = z.object({
  motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica le ragioni dell\'astensione' }),
});

const iso = z.string();
const isoOrNull = z.string().nullable();
const reason = z.object({ codice: z.string(), testo: z.string() });

export const cddTaskRecordSchema = z.object({
  id: z.string(), cod_pratica: z.string(), cod_anagrafe: z.string(),
  livello: z.enum(CDD_LIVELLI), motivazioni_livello: z.array(reason), classe_rischio: z.string().nullable(), pep: z.boolean(),
  motivo: z.enum(CDD_MOTIVI), origine: z.record(z.string(), z.unknown()), stato: z.enum(CDD_TASK_STATES),
  assegnatario: z.string().nullable(), revisore: z.string().nullable(), analista_puo_completare: z.boolean(), edd_richiesta: z.boolean(),
  nota: z.string().nullable(), due_at: iso, created_by: z.string(),
  started_by: z.string().nullable(), started_at: isoOrNull,
  review_requested_by: z.string().nullable(), review_requested_by_username: z.string().nullable(), review_requested_at: isoOrNull,
  completed_by: z.string().nullable(), completed_by_username: z.string().nullable(), completed_at: isoOrNull,
  motivazione_astensione: z.string().nullable(), abstained_by: z.string().nullable(), abstained_at: isoOrNull,
  motivo_eliminazione: z.string().nullable(), deleted_by: z.string().nullable(), deleted_at: isoOrNull,
  review_id: z.string().nullable(), next_review_id: z.string().nullable(), next_review_at: isoOrNull,
  workflow_id: z.string(), created_at: iso, updated_at: iso,
});

/** A task as a write or a read answers it: the record, what the caller may do next, and its workflow. */
export const cddTaskResponse = cddTaskRecordSchema.extend({
  allowed_actions: z.array(z.string()),
  workflow: z.object({ id: z.string(), url: z.string() }),
});

export const cddTaskDetailResponse = cddTaskResponse.extend({
  evidenze: z.array(z.object({
    id: z.string(), tipo: z.string(), descrizione: z.string(), riferimento: z.string().nullable(), sha256: z.string().nullable(),
    nome_file: z.string().nullable(), mime: z.string().nullable(), created_by: z.string(), created_at: iso,
  })),
  audit: z.array(z.object({ action: z.string(), actor: z.string(), data: z.record(z.string(), z.unknown()), occurred_at: iso })),
  questionari: z.array(z.object({ cod_questionario: z.string(), stato: z.string(), completed_at: isoOrNull })),
});

export const initiateCddResponse = cddTaskResponse.extend({ creata: z.boolean() });

export const cddHistoryResponse = z.object({ cod_anagrafe: z.string(), items: z.array(cddTaskRecordSchema) });

export const listCddTasksQuery = z.object({
  stato: z.enum(CDD_TASK_STATES).optional().or(empty),
  livello: z.enum(CDD_LIVELLI).optional().or(empty),
  motivo: z.enum(CDD_MOTIVI).optional().or(empty),
  cod_anagrafe: z.string().trim().max(64).optional().or(empty),
  assegnatario: z.union([z.uuid({ message: 'Assegnatario non valido' }), z.literal('me')]).optional().or(empty),
  aperte: bool.optional().or(empty),
  scadute: bool.optional().or(empty),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(cddTasksList),
});
export type ListCddTasksQuery = z.infer<typeof listCddTasksQuery>;
export const cddTasksListResponse = listResponse(cddTaskRecordSchema);

export const listSchedulesQuery = z.object({
  stato: z.enum(['programmata', 'scaduta', 'annullata']).optional().or(empty),
  cod_anagrafe: z.string().trim().max(64).optional().or(empty),
  scadute: bool.optional().or(empty),
  entro_giorni: z.coerce.number().int('Indica un numero intero di giorni').min(0, 'Minimo 0').max(3650, 'Massimo 3650').optional()
    .or(empty),
  ...listParamsShape(cddReviewsList),
});
export type ListSchedulesQuery = z.infer<typeof listSchedulesQuery>;
export const schedulesListResponse = listResponse(z.object({
  id: z.string(), cod_anagrafe: z.string(), motivo: z.string(), classe_rischio: z.string().nullable(), due_at: iso, stato: z.string(),
  workflow_id: z.string(), created_at: iso, updated_at: iso, in_ritardo: z.boolean(),
}));

// KYC questionnaires.

const question = z.object({
  id: z.string(), etichetta: z.string(), tipo: z.enum(['scelta', 'testo', 'booleano', 'numero', 'paesi']), obbligatoria: z.boolean(),
  opzioni: z.array(z.object({ valore: z.string(), etichetta: z.string() })).optional(), aiuto: z.string().optional(), min: z.number().optional(),
  solo_per: z.array(z.string()).optional(), richiesta_se: z.object({ domanda: z.string(), valori: z.array(z.union([z.string(), z.boolean()])) }).optional(),
});

export const domandeQuery = z.object({ tipo_soggetto: z.enum(KYC_SUBJECT_TYPES, { message: `Tipo di soggetto non valido: ${KYC_SUBJECT_TYPES.join(', ')}` }) });
export const domandeResponse = z.object({ codice: z.string(), versione: z.number(), titolo: z.string(), tipo_soggetto: z.string(), domande: z.array(question) });

const risposte = z.record(z.string().max(100), z.unknown(), { message: 'Le risposte devono essere un oggetto { domanda: risposta }' });
export const answersBody = z.object({ risposte });

export const createQuestionnaireBody = z.object({
  cod_anagrafe: refersTo('soggetto', z.string().trim().min(1, 'Indica il cliente').max(64)),
  cdd_pratica: refersTo('cdd_pratica', z.string().trim().max(64).optional().or(empty)),
});

export const questionnaireResponse = z.object({
  id: z.string(), cod_questionario: z.string(), template_codice: z.string(), template_versione: z.number(), cod_anagrafe: z.string(),
  tipo_soggetto: z.string(), cdd_pratica_id: z.string().nullable(), risposte: z.record(z.string(), z.unknown()), stato: z.enum(['bozza', 'completato']),
  created_by: z.string(), updated_by: z.string().nullable(), completed_by: z.string().nullable(), completed_at: isoOrNull, created_at: iso, updated_at: iso,
  titolo: z.string(), domande: z.array(question),
});

export const kycProfileResponse = z.object({ cod_anagrafe: z.string(), tipo_soggetto: z.string(), questionario: questionnaireResponse.nullable() });
