import { z } from 'zod';
import { refersTo } from '../../db/references';
import { DOSSIER_STATES } from '../../../workflows/dossier/dossier.machine';
import { DOSSIER_SECTIONS } from '../../../workflows/dossier/dossier.sections';
import { listParamsShape, listResponse } from '../../kit/list';
import { testoOpzionale } from '../../http/text-field';
import { dossiersList } from './dossier.list';

const emptyToUndefined = <T extends z.ZodType>(s: T) => z.union([s, z.literal('').transform(() => undefined)]).optional();
const codAnagrafe = z.string({ message: 'Indica il codice anagrafico del cliente' }).trim().min(1, 'Indica il codice anagrafico del cliente').max(64, 'Codice anagrafico troppo lungo');

export const generateDossierSchema = z.object({
  cod_anagrafe: refersTo('cliente', codAnagrafe),
  sezioni: z.array(z.enum(DOSSIER_SECTIONS, { message: 'Sezione sconosciuta' }), { message: 'Scegli le sezioni del fascicolo' })
    .min(1, 'Scegli almeno una sezione').max(DOSSIER_SECTIONS.length),
}).strict();
export type GenerateDossierInput = z.infer<typeof generateDossierSchema>;

export const reasonSchema = z.object({ motivazione: testoOpzionale({ max: 2_000, multiline: true }) }).strict();

export const listDossiersQuery = z.object({
  stato: emptyToUndefined(z.enum(DOSSIER_STATES, { message: 'Stato non valido' })),
  cod_anagrafe: emptyToUndefined(codAnagrafe),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(dossiersList),
});
export type ListDossiersQuery = z.infer<typeof listDossiersQuery>;

export const downloadQuery = z.object({
  id: emptyToUndefined(z.uuid({ message: 'Identificativo del fascicolo non valido' })),
  formato: z.enum(['pdf', 'manifest'], { message: 'Formato non valido: pdf o manifest' }).default('pdf'),
});

const date = z.union([z.string(), z.date()]).nullable();
export const dossierRecordSchema = z.object({
  id: z.string(), cod_azienda: z.string(), cod_anagrafe: z.string(), denominazione: z.string(), sezioni: z.array(z.string()), stato: z.enum(DOSSIER_STATES),
  pdf_sha256: z.string(), pdf_bytes: z.number(), pagine: z.number(), created_by: z.string(), ceremony_id: z.string().nullable(),
  signed_by: z.string().nullable(), signed_at: date, archived_at: date, workflow_id: z.string(), generated_at: date, created_at: date, updated_at: date,
});

export const dossierWriteResponse = dossierRecordSchema.extend({
  manifest: z.record(z.string(), z.unknown()), manifest_jws: z.string(),
  allowed_actions: z.array(z.string()),
  workflow: z.object({ id: z.string(), url: z.string() }),
  download_url: z.string(),
  signing_url: z.string().optional(),
});

export const dossierListResponse = listResponse(dossierRecordSchema);
