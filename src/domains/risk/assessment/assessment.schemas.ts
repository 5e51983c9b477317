import { z } from 'zod';
import { RISK_CLASSES, RISK_MOTIVI } from '../../../../workflows/risk/risk-assessment.contract';
import { RISK_ASSESSMENT_STATES } from '../../../../workflows/risk/risk-assessment.machine';
import { testo, testoOpzionale } from '../../../http/text-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import { assessmentsList } from './assessment.list';
import { refersTo } from '../../../db/references';

const empty = z.literal('').transform(() => undefined);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (aaaa-mm-gg)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Data non valida');
const codAnagrafe = testo({ max: 64, vuoto: 'Indica il codice anagrafe del cliente' });

/** The reasons a person may give when starting one by hand (the others are the system's). */
export const MOTIVI_MANUALI = ['manuale', 'evento_screening', 'evento_anagrafe', 'evento_cdd', 'evento_monitoraggio'] as const;

export const startAssessmentSchema = z.object({
  cod_anagrafe: refersTo('soggetto', codAnagrafe),
  motivo: z.enum(MOTIVI_MANUALI, { message: 'Motivo non valido' }).optional().default('manuale'),
  riferimento: testoOpzionale({ max: 200 }),
});

export const calculateSchema = z.object({ riferimento: testoOpzionale({ max: 200 }) });

export const overrideSchema = z.object({
  classe: z.enum(RISK_CLASSES, { message: 'Scegli una classe di rischio valida' }),
  motivo: testo({ max: 5_000, min: 3, multiline: true, vuoto: 'Indica il motivo della modifica della classe' }),
  scadenza: z.union([isoDate, z.literal('')]).optional().transform((v) => v || null),
});

export const noteSchema = z.object({ nota: testoOpzionale({ max: 5_000, multiline: true }) });
export const emptySchema = z.object({});

export const openCaseSchema = z.object({
  cod_valutazione: refersTo('valutazione', testo({ max: 32, vuoto: 'Indica il codice della valutazione' })),
  titolo: testoOpzionale({ max: 200 }),
  descrizione: testoOpzionale({ max: 10_000, multiline: true }),
  priorita: z.enum(['bassa', 'media', 'alta', 'critica'], { message: 'Scegli una priorità valida' }).optional(),
});

export const listAssessmentsQuery = z.object({
  stato: z.enum(RISK_ASSESSMENT_STATES, { message: 'Stato non valido' }).optional().or(empty),
  classe: z.enum(RISK_CLASSES, { message: 'Classe non valida' }).optional().or(empty),
  cod_anagrafe: z.string().trim().max(64).optional().or(empty),
  motivo: z.enum(RISK_MOTIVI, { message: 'Motivo non valido' }).optional().or(empty),
  /** Only the overrides waiting for the caller's confirmation (four-eyes: not those they proposed). */
  da_confermare: bool.optional().or(empty),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(assessmentsList),
});

const date = z.string();
const classe = z.enum(RISK_CLASSES);
export const assessmentRecordSchema = z.object({
  id: z.string(), cod_azienda: z.string(), cod_valutazione: z.string(), cod_anagrafe: z.string(), stato: z.enum(RISK_ASSESSMENT_STATES),
  motivo: z.enum(RISK_MOTIVI), riferimento: z.string().nullable(), versione_id: z.string().nullable(), punteggio: z.number().nullable(),
  classe_calcolata: classe.nullable(), classe_effettiva: classe.nullable(), classe_precedente: classe.nullable(),
  pavimento: z.object({ regola: z.string(), classe }).nullable(), contributi: z.array(z.unknown()), profilo: z.record(z.string(), z.unknown()),
  probabilita: z.number().nullable(), impatto: z.number().nullable(),
  override_classe: classe.nullable(), override_motivo: z.string().nullable(), override_scadenza: z.string().nullable(),
  override_by: z.string().nullable(), override_at: date.nullable(), override_confirmed_by: z.string().nullable(), override_confirmed_at: date.nullable(),
  override_scaduto: z.boolean(), released_by: z.string().nullable(), released_at: date.nullable(), archived_by: z.string().nullable(),
  archived_at: date.nullable(), superata_da: z.string().nullable(), cod_caso: z.string().nullable(), workflow_id: z.string(),
  created_by: z.string(), created_at: date, updated_at: date,
});

const workflowLink = z.object({ id: z.string(), url: z.string() });
export const assessmentViewSchema = assessmentRecordSchema.extend({ allowed_actions: z.array(z.string()), workflow: workflowLink });
export const assessmentListResponse = listResponse(assessmentRecordSchema);

export const explainabilityResponse = z.object({
  cod_valutazione: z.string(), cod_anagrafe: z.string(), stato: z.string(), calcolata_il: z.string().nullable(),
  versione: z.object({ id: z.string(), versione: z.number().nullable() }).nullable(),
  contributi: z.array(z.object({
    regola_id: z.string(), regola: z.string(), nome: z.string(), famiglia: z.string(), fattore: z.string(), punti: z.number(),
    classe_minima: z.string().nullable(), versione_regole: z.number().nullable(), letti: z.array(z.object({ path: z.string(), valore: z.unknown() })), frase: z.string(),
  })),
  somma: z.number(), punteggio: z.number().nullable(), classe_da_punteggio: z.string().nullable(),
  pavimento: z.object({ regola: z.string(), classe: z.string(), classe_label: z.string() }).nullable(),
  classe_calcolata: z.string().nullable(),
  override: z.object({
    classe: z.string(), motivo: z.string().nullable(), scadenza: z.string().nullable(), scaduto: z.boolean(),
    proposto_da: z.string().nullable(), confermato_da: z.string().nullable(),
  }).nullable(),
  classe_effettiva: z.string().nullable(),
  soglie: z.array(z.object({ classe: z.string(), punteggio_min: z.number(), livello_cdd: z.string(), revisione_mesi: z.number() })),
  aggregati: z.record(z.string(), z.number().nullable()),
  dati: z.unknown(),
  passi: z.array(z.object({ codice: z.string(), nome: z.string(), punti: z.number(), da: z.number(), a: z.number() })),
});

export const historyResponse = z.object({
  cod_anagrafe: z.string(),
  corrente: z.object({
    punteggio: z.number(), classe_calcolata: z.string(), classe_effettiva: z.string().nullable(), valutazione_id: z.string().nullable(), calcolato_at: date,
  }).nullable(),
  punti: z.array(z.object({
    calcolato_at: date, punteggio: z.number(), classe: z.string(), probabilita: z.number(), impatto: z.number(), origine: z.string(),
    versione_id: z.string(), valutazione_id: z.string().nullable(), esecuzione_id: z.string().nullable(),
  })),
  valutazioni: z.array(assessmentRecordSchema),
});

export const openCaseResponse = z.object({
  created: z.boolean(), cod_valutazione: z.string(), cod_caso: z.string(),
  caso: z.object({ id: z.string(), titolo: z.string(), stato: z.string(), cod_anagrafe: z.string().nullable(), tipo: z.string(), priorita: z.string() }),
});
