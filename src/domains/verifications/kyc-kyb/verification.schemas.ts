import { z } from 'zod';
import { testo, testoOpzionale } from '../../../http/text-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import { VERIFICATION_STATES, VERIFICATION_USER_ACTIONS } from '../../../../workflows/verification/verification.machine';
import { ORIGINI_VERIFICA, STATI_CHECK, TIPI_CHECK, TIPI_VERIFICA } from '../verifications.vocabulary';
import { verificationsList } from './verification.list';
import { kybProfileSchema } from './verification.profile';
import { refersTo } from '../../../db/references';

/** The verifications API's bodies and queries (Italian messages named by field) and its answers. */

const empty = z.literal('').transform(() => undefined);
const codAnagrafe = testo({ max: 64, vuoto: 'Indica il codice anagrafe del cliente' });
const motivo = testoOpzionale({ max: 5_000, multiline: true });

/** Declared data: a JSON object of modest size (what the applicant or the operator declared, owners as `titolari`). */
const datiDichiarati = z.record(z.string(), z.unknown(), { message: 'I dati dichiarati sono un oggetto JSON' })
  .refine((v) => JSON.stringify(v).length <= 100_000, 'Dati dichiarati troppo grandi (massimo 100.000 caratteri)');
/** The documents the verification relies on, by code (DOC-000001) or id. */
const documenti = z.array(refersTo('documento', z.string().trim().min(1, 'Codice documento non valido').max(64, 'Codice documento non valido')), { message: 'Elenco di codici documento' })
  .max(50, 'Al massimo 50 documenti');

export const createKycSchema = z.object({
  cod_anagrafe: refersTo('soggetto', codAnagrafe),
  dati_dichiarati: datiDichiarati.optional(),
  documenti: documenti.optional(),
}).strict();

export const createKybSchema = createKycSchema.extend({ profilo: kybProfileSchema.optional() }).strict();

/** PUT .../stato: the state asked for (in_progress, approved, rejected), with the reason of a rejection. */
export const STATI_RICHIEDIBILI = ['in_progress', 'approved', 'rejected'] as const;
export const statusSchema = z.object({
  stato: z.enum(STATI_RICHIEDIBILI, { message: 'Stato non valido: in_progress, approved o rejected' }),
  motivo,
}).strict();

/** POST /api/v1/admin/.../transizione: the action, as the console's buttons name it. */
export const transitionSchema = z.object({
  azione: z.enum(VERIFICATION_USER_ACTIONS, { message: 'Azione non valida: start, approve o reject' }),
  motivo,
}).strict();

export const createCheckSchema = z.object({
  tipo: z.enum(TIPI_CHECK, { message: 'Tipo di controllo non valido' }),
  descrizione: testoOpzionale({ max: 500 }),
}).strict();

export const updateCheckSchema = z.object({
  stato: z.enum(STATI_CHECK, { message: 'Esito non valido: pending, passed, failed o waived' }),
  esito_nota: testoOpzionale({ max: 5_000, multiline: true }),
  evidenze: z.array(z.unknown(), { message: 'Le evidenze sono un elenco' }).max(100, 'Al massimo 100 evidenze').optional(),
  motivo_deroga: testoOpzionale({ max: 5_000, multiline: true }),
}).strict();

export const listVerificationsQuery = z.object({
  stato: z.enum(VERIFICATION_STATES, { message: 'Stato non valido' }).optional().or(empty),
  origine: z.enum(ORIGINI_VERIFICA, { message: 'Origine non valida' }).optional().or(empty),
  cod_anagrafe: z.string().trim().max(64).optional().or(empty),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(verificationsList),
});

const date = z.string();
export const checkSchema = z.object({
  id: z.string(), cod_check: z.string(), tipo: z.enum(TIPI_CHECK), descrizione: z.string().nullable(), stato: z.enum(STATI_CHECK),
  esito_nota: z.string().nullable(), evidenze: z.array(z.unknown()), motivo_deroga: z.string().nullable(), waived_by: z.string().nullable(),
  updated_by: z.string().nullable(), created_by: z.string(), created_at: date, updated_at: date,
});
export const checkListResponse = z.object({ items: z.array(checkSchema) });

export const verificationRecordSchema = z.object({
  id: z.string(), cod_azienda: z.string(), cod_verifica: z.string(), tipo: z.enum(TIPI_VERIFICA), cod_anagrafe: z.string(), stato: z.enum(VERIFICATION_STATES),
  origine: z.enum(ORIGINI_VERIFICA), onboarding_case_id: z.string().nullable(), dati_dichiarati: z.record(z.string(), z.unknown()),
  profilo: z.record(z.string(), z.unknown()).nullable(), motivo_rifiuto: z.string().nullable(), scade_il: date.nullable(),
  discrepanza_ubo: z.boolean(), discrepanze_ubo: z.array(z.unknown()), assegnata_a: z.string().nullable(), started_by: z.string().nullable(),
  started_at: date.nullable(), decided_by: z.string().nullable(), decided_at: date.nullable(), expired_at: date.nullable(), workflow_id: z.string(),
  created_by: z.string(), created_at: date, updated_at: date,
});
export const verificationListResponse = listResponse(verificationRecordSchema);

export const verificationViewSchema = verificationRecordSchema.extend({
  azioni: z.array(z.enum(VERIFICATION_USER_ACTIONS)),
  documenti: z.array(z.object({
    id: z.string(), cod_documento: z.string().nullable(), tipo: z.string(), numero: z.string().nullable(), data_scadenza: z.string().nullable(),
    stato: z.string(), nome_file: z.string().nullable(), mime: z.string().nullable(),
  })),
  checks: z.array(checkSchema).optional(),
  workflow: z.object({ id: z.string(), url: z.string() }),
});
