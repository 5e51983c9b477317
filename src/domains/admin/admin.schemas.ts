import { listResponse } from '../../kit/list';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../auth';
import { ROLES } from '../../kit/roles';
import { testo, testoOpzionale } from '../../http/text-field';

export const TIPI_INTERMEDIARIO = ['banca', 'istituto_pagamento', 'imel', 'sim', 'sgr', 'casp', 'assicurazione', 'fiduciaria', 'professionista', 'altro'] as const;

export const codAziendaSchema = z.string().trim().regex(/^[A-Z0-9_-]{2,20}$/, 'Codice azienda: 2-20 caratteri tra A-Z, 0-9, _ e -');

export const aziendaCreateSchema = z.object({
  cod_azienda: codAziendaSchema,
  ragione_sociale: testo({ max: 200, vuoto: 'Indica la ragione sociale' }),
  codice_fiscale: z.string().trim().regex(/^[A-Z0-9]{11,16}$/i, 'Codice fiscale non valido').optional().or(z.literal('').transform(() => undefined)),
  partita_iva: z.string().trim().regex(/^\d{11}$/, 'La partita IVA ha 11 cifre').optional().or(z.literal('').transform(() => undefined)),
  tipo_intermediario: z.enum(TIPI_INTERMEDIARIO),
  indirizzo: testoOpzionale({ max: 300 }),
  email: z.email('Email non valida').optional().or(z.literal('').transform(() => undefined)),
  pec: z.email('PEC non valida').optional().or(z.literal('').transform(() => undefined)),
});
export const aziendaUpdateSchema = aziendaCreateSchema.omit({ cod_azienda: true }).partial().extend({ attiva: z.boolean().optional() });

export const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH, `La password deve avere almeno ${PASSWORD_MIN_LENGTH} caratteri`).max(200);

export const utenteCreateSchema = z.object({
  cod_azienda: codAziendaSchema.nullable().optional(),
  username: z.string().trim().toLowerCase().regex(/^[a-z0-9._-]{3,60}$/, 'Nome utente: 3-60 caratteri tra a-z, 0-9, punto, _ e -'),
  email: z.email('Email non valida'),
  nome: testo({ max: 100, min: 1, vuoto: 'Indica il nome' }),
  cognome: testo({ max: 100, min: 1, vuoto: 'Indica il cognome' }),
  password: passwordSchema,
  ruoli: z.array(z.enum(ROLES)).min(1, 'Assegna almeno un ruolo'),
});
export const utenteUpdateSchema = utenteCreateSchema.omit({ username: true, cod_azienda: true, password: true })
  .partial().extend({ attivo: z.boolean().optional(), password: passwordSchema.optional() });

export type AziendaCreate = z.infer<typeof aziendaCreateSchema>;
export type UtenteCreate = z.infer<typeof utenteCreateSchema>;

// Responses (as the client reads them: timestamps are ISO strings).
const when = z.string();
export const aziendaResponse = z.object({
  cod_azienda: z.string(), ragione_sociale: z.string(), codice_fiscale: z.string().nullable(), partita_iva: z.string().nullable(),
  tipo_intermediario: z.string(), indirizzo: z.string().nullable(), email: z.string().nullable(), pec: z.string().nullable(),
  attiva: z.boolean(), created_at: when, updated_at: when,
});
export const utenteResponse = z.object({
  cod_utente: z.string(), cod_azienda: z.string().nullable(), username: z.string(), email: z.string(), nome: z.string(), cognome: z.string(),
  ruoli: z.array(z.string()), attivo: z.boolean(), totp_enabled: z.boolean(), last_login_at: when.nullable(), created_at: when, updated_at: when,
});
export const aziendeListResponse = listResponse(aziendaResponse);
export const utentiListResponse = listResponse(utenteResponse);
