import { z } from 'zod';
import { MATCH_ESITI, MATCH_STATES } from '../../../workflows/screening/screening.machine';
import { testo } from '../../http/text-field';
import { listParamsShape } from '../../kit/list';
import { importRunsList, matchesList } from './screening.lists';
import { refersTo } from '../../db/references';

const text = (max: number) => z.string().trim().max(max, `Massimo ${max} caratteri`);
const required = (max: number, msg = 'Campo obbligatorio') => text(max).min(1, msg);
const optionalText = (max: number) => text(max).optional().transform((v) => (v ? v : undefined));

export const subjectSchema = z.object({
  nome: testo({ max: 300, vuoto: 'Indica il nome da verificare' }),
  tipo: z.enum(['person', 'company'], { message: 'Scegli persona fisica o giuridica' }),
  data_nascita: z.union([z.string().trim().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'Data nel formato AAAA, AAAA-MM o AAAA-MM-GG'), z.literal('')]).optional().transform((v) => v || undefined),
  nazionalita: optionalText(100),
  cod_anagrafe: optionalText(64),
  wallets: z.array(required(200)).max(50, 'Massimo 50 indirizzi').optional(),
});
export type SubjectInput = z.infer<typeof subjectSchema>;

export const batchSchema = z.object({
  subjects: z.array(subjectSchema).min(1, 'Indica almeno un soggetto').max(5000, 'Massimo 5000 soggetti per richiesta'),
});

export const walletSchema = z.object({ address: required(200, 'Indica l\'indirizzo del wallet') });

export const assignSchema = z.object({ assegnatario: refersTo('utente', z.uuid({ message: 'Assegnatario non valido' })) });

export const resolveSchema = z.object({
  esito: z.enum(MATCH_ESITI, { message: 'Scegli un esito: corrispondenza confermata o falso positivo' }),
  motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica la motivazione' }),
});

const blank = z.literal('').transform(() => undefined);
export const listMatchesQuery = z.object({
  stato: z.enum(MATCH_STATES).optional().or(blank),
  min_score: z.coerce.number().min(0).max(1).optional().or(blank),
  list: text(100).optional().or(blank),
  assegnatario: z.union([z.uuid({ message: 'Assegnatario non valido' }), z.literal('me')]).optional().or(blank),
  da_confermare: z.enum(['true', 'false']).transform((v) => v === 'true').optional().or(blank),
  q: text(200).optional(),
  ...listParamsShape(matchesList),
});
export type ListMatchesQuery = z.infer<typeof listMatchesQuery>;

export const historyQuery = z.object(listParamsShape(importRunsList));
