import { z } from 'zod';
import { SUBJECT_TYPES } from '../../../workflows/onboarding/onboarding.contract';
import { DOCUMENT_TYPES, magicLinkRequestSchema, type DocumentType } from './onboarding.schemas';
import { refersTo } from '../../db/references';

/**
 * Request envelopes and response shapes of the applicant's API. The envelopes are
 * lenient about the fields inside a section (a draft is stored as typed) but not about
 * its shape: a section that is not an object, or owners that are not a list, cannot be
 * stored and are a 422.
 */

const section = () => z.record(z.string(), z.unknown(), { error: 'Atteso un oggetto con i campi della sezione' });
const entries = (max: number) => z.array(z.record(z.string(), z.unknown(), { error: 'Ogni elemento deve essere un oggetto' }), { error: 'Attesa una lista' })
  .max(max, `Al massimo ${max} elementi`);

export const anagrafeBody = section();
export const uboBody = z.object({ titolari: entries(20) });
export const countriesBody = z.object({ paesi: entries(60) });
export const cddAnswersBody = z.object({
  versione: z.string({ error: 'Indica la versione del questionario' }).max(40),
  risposte: section(),
});
export const draftPatchBody = z.strictObject({
  subject_type: z.enum(SUBJECT_TYPES, { error: 'Scegli il tipo di cliente' }).optional(),
  anagrafe: section().optional(),
  ubo: uboBody.optional(),
  cdd_answers: z.object({ versione: z.string().max(40).optional(), risposte: section() }).optional(),
  countries: countriesBody.optional(),
}, { error: (i) => (i.code === 'unrecognized_keys' ? `Sezione sconosciuta: ${(i as { keys?: string[] }).keys?.join(', ')}` : undefined) });

export const magicLinkBody = magicLinkRequestSchema.extend({ email: magicLinkRequestSchema.shape.email.optional() })
  .refine((b) => !!b.email || !!b.case_id, { path: ['email'], message: 'Indica l\'indirizzo e-mail' });

/** The upload form, for the OpenAPI document (the route parses multipart itself). */
export const uploadForm = z.object({
  file: z.file(),
  tipo: z.enum(Object.keys(DOCUMENT_TYPES) as [DocumentType, ...DocumentType[]]),
  riferimento: refersTo('titolare_pratica', z.string().max(64).optional()),
});

export const resumeQuery = z.object({ token: z.string().max(4096).optional() });
export const cddSchemaQuery = z.object({ versione: z.string().max(40).optional() });

const signing = z.object({ ceremony_id: z.string(), signing_path: z.string() });
const documentView = z.object({
  id: z.string(), tipo: z.string(), riferimento: z.string(), nome_file: z.string(), mime: z.string(), dimensione: z.number(), sha256: z.string(), created_at: z.string().nullable(),
});
export const walletResponse = z.object({
  id: z.string(), rete: z.string(), indirizzo: z.string(), tipo: z.string(), vasp_nome: z.string().nullable(), volume_annuo_eur: z.number().nullable(),
  prova: z.object({ metodo: z.string().nullable(), messaggio: z.string().nullable(), verificata: z.boolean().nullable() }).nullable(),
  stato: z.string(), created_at: z.string().nullable(),
});
const requiredDoc = z.object({ tipo: z.string(), riferimento: z.string(), descrizione: z.string(), step: z.number(), caricato: z.boolean(), documenti: z.array(z.string()) });
export const requiredDocsResponse = z.object({ items: z.array(requiredDoc) });

export const caseResponse = z.object({
  id: z.string(), stato: z.string(), modificabile: z.boolean(), allowed_actions: z.array(z.string()), tipo_soggetto: z.string().nullable(), email: z.string().nullable(),
  anagrafe: z.record(z.string(), z.unknown()), ubo: z.object({ titolari: z.array(z.record(z.string(), z.unknown())) }),
  cdd_answers: z.object({ versione: z.string().nullable(), risposte: z.record(z.string(), z.unknown()) }),
  countries: z.object({ paesi: z.array(z.unknown()) }),
  travel_rule: z.object({ stato: z.string(), ceremony_id: z.string().nullable(), signing_path: z.string().nullable() }).loose(),
  dichiarazioni: z.object({ ceremony_id: z.string(), stato: z.string(), signing_path: z.string().nullable() }).nullable(),
  documents: z.array(documentView), wallets: z.array(walletResponse), required_documents: z.array(requiredDoc), steps: z.array(z.number()),
  info_request_message: z.string().nullable(), submitted_at: z.string().nullable(), submissions: z.number(), last_edit_at: z.string().nullable(), created_at: z.string().nullable(),
});
export const documentResponse = documentView;
export const signingResponse = signing;
/** complete-submission while the declarations still wait for the signature (202). */
export const signaturePendingResponse = z.object({ stato: z.literal('submitted'), firma: signing });
export const validationResponse = z.object({ ok: z.boolean(), issues: z.array(z.object({ path: z.string(), message: z.string(), step: z.number() })) });
export const cddAnswersResponse = z.object({ versione: z.string().nullable(), risposte: z.record(z.string(), z.unknown()) });
export const resumeResponse = z.object({ case_id: z.string(), stato: z.string() });
export const magicLinkResponse = z.union([z.object({ detail: z.string(), sent_to: z.string(), expires_at: z.string() }), z.object({ detail: z.string() })]);
/** The questionnaire for the applicant's subject type: its questions as the CDD schema defines them, and the current version. */
export const cddSchemaResponse = z.object({ versione: z.string(), domande: z.array(z.record(z.string(), z.unknown())), corrente: z.string() });
