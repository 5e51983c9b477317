import { z } from 'zod';
import { refersTo } from '../../db/references';

export const DEFAULT_CONSENT = {
  testo: 'Dichiaro di aver letto il documento e acconsento a sottoscriverlo con firma elettronica tramite codice monouso (OTP) inviato al mio indirizzo. Accetto che la piattaforma conservi le prove della firma (impronta del documento, data e ora, indirizzo IP e browser).',
  versione: '2026-11',
} as const;

const text = (max: number) => z.string().trim().min(1, 'Campo obbligatorio').max(max, `Massimo ${max} caratteri`);

export const startCeremonySchema = z.object({
  signer: z.object({ nome: text(200), email: z.string().trim().email('Indirizzo e-mail non valido').max(320) }),
  document: z.object({
    nome: text(255),
    // Base64 of the document; kept well under Temporal's payload limit.
    contenuto_base64: z.string().min(1, 'Campo obbligatorio').max(700_000, 'Documento troppo grande').regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Base64 non valido'),
  }),
  consent: z.object({ testo: text(4000), versione: text(50) }).optional(),
  parent_workflow_id: refersTo('workflow', z.string().trim().min(1).max(300).optional()),
});
export type StartCeremonyInput = z.infer<typeof startCeremonySchema>;

const token = z.string().min(10).max(200).optional();
export const tokenQuery = z.object({ token, format: z.enum(['pdf', 'json']).optional() });
export const tokenBody = z.object({ token });
export const signBody = z.object({ token, otp: z.string().trim().regex(/^\d{6}$/, 'Il codice è di 6 cifre') });
export const verifyBody = z.object({
  bundle: z.union([z.string().min(1), z.object({ jws: z.string().min(1) }).passthrough()]),
  trusted_certificate: z.string().min(1).optional(),
});

export const ceremonyResponse = z.object({
  id: z.string().uuid(),
  stato: z.string(),
  signer: z.object({ nome: z.string(), email: z.string() }),
  document: z.object({ nome: z.string(), sha256: z.string().nullable() }),
  consent: z.object({ testo: z.string(), versione: z.string() }),
  otp_attempts: z.number(),
  expires_at: z.string(),
  signed_at: z.string().nullable(),
  allowed_actions: z.array(z.string()),
  workflow_id: z.string(),
  otp: z.object({
    sent_at: z.string().nullable(),
    /** New codes the signer may still ask for. */
    resends_left: z.number().int(),
    /** From when a new code may be asked for (one a minute). */
    resend_from: z.string().nullable(),
  }),
});
export const startResponse = ceremonyResponse.extend({ token: z.string(), signing_url: z.string() });
export const verifyResponse = z.object({ valid: z.boolean(), reason: z.string().optional(), evidence: z.unknown().optional(), certificate: z.unknown().optional() });
