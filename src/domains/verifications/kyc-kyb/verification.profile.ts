import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../../../config';
import { testo } from '../../../http/text-field';
import { todayInRome } from '../../records';
import { FORME_GIURIDICHE } from '../verifications.vocabulary';

/**
 * The KYB company profile (issue 13 §1): legal form from the list, registration number and
 * register, ATECO code (xx.xx.xx, ISTAT ATECO 2007/2025), country of incorporation (ISO 3166
 * alpha-2), incorporation date (not in the future), registered address and share capital (≥ 0).
 * An Italian company's registration number is its REA number (province and number, MI-1234567).
 * One schema for the API body and the console's form: messages are Italian, named by field.
 */
const ISO2 = new Set((JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'iso3166-alpha2.json'), 'utf8')) as { codes: string[] }).codes);
const COUNTRY_MESSAGE = 'Indica un paese valido (codice ISO a due lettere, es. IT)';
const country = () => z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.string({ message: COUNTRY_MESSAGE }).refine((c) => ISO2.has(c), COUNTRY_MESSAGE));
const DATE_MESSAGE = 'Data non valida (AAAA-MM-GG)';
const validDay = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

export const ATECO_PATTERN = /^\d{2}\.\d{2}\.\d{2}$/;
/** REA: the chamber of commerce's province code and the number (up to 7 digits). */
export const REA_PATTERN = /^[A-Z]{2}-?\d{1,7}$/;

export const kybProfileSchema = z.object({
  forma_giuridica: z.enum(FORME_GIURIDICHE, { message: 'Scegli la forma giuridica dall\'elenco' }),
  numero_registro: z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.string({ message: 'Indica il numero di iscrizione (REA)' }).min(1, 'Indica il numero di iscrizione (REA)').max(50, 'Massimo 50 caratteri')
    .regex(/^[A-Z0-9][A-Z0-9 ./-]*$/, 'Usa solo lettere, cifre, punti, trattini e barre')),
  registro: testo({ max: 200, vuoto: 'Indica il registro di iscrizione (es. Registro delle imprese di Milano)' }),
  codice_ateco: z.string({ message: 'Indica il codice ATECO' }).trim().regex(ATECO_PATTERN, 'Codice ATECO non valido: usa il formato xx.xx.xx (es. 62.01.00)'),
  paese_costituzione: country(),
  data_costituzione: z.string({ message: 'Indica la data di costituzione' }).trim().refine(validDay, { message: DATE_MESSAGE, abort: true })
    .refine((d) => d <= todayInRome(), 'La data di costituzione non può essere nel futuro'),
  sede_legale: z.object({
    indirizzo: testo({ max: 200, vuoto: 'Indica l\'indirizzo della sede legale' }),
    cap: z.string({ message: 'Indica il CAP' }).trim().min(1, 'Indica il CAP').max(12, 'Massimo 12 caratteri').regex(/^[A-Za-z0-9 -]+$/, 'CAP non valido'),
    comune: testo({ max: 100, vuoto: 'Indica il comune' }),
    provincia: z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v), z.string().max(50, 'Massimo 50 caratteri').optional()),
    paese: country(),
  }, { message: 'Indica la sede legale' }),
  capitale_sociale: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : v),
    z.number({ message: 'Indica il capitale sociale in euro' }).finite('Indica il capitale sociale in euro').min(0, 'Il capitale sociale non può essere negativo')),
}).superRefine((p, ctx) => {
  // An Italian company is in the Registro delle imprese: its number is the REA (MI-1234567); an Italian address has a five-digit CAP.
  if (p.paese_costituzione === 'IT' && !REA_PATTERN.test(p.numero_registro)) {
    ctx.addIssue({ code: 'custom', path: ['numero_registro'], message: 'Numero REA non valido: sigla della provincia e numero (es. MI-1234567)' });
  }
  if (p.sede_legale.paese === 'IT' && !/^\d{5}$/.test(p.sede_legale.cap)) {
    ctx.addIssue({ code: 'custom', path: ['sede_legale', 'cap'], message: 'Il CAP italiano ha cinque cifre' });
  }
});
export type KybProfile = z.infer<typeof kybProfileSchema>;
