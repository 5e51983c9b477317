import { z } from 'zod';
import { testo, testoOVuoto } from '../../../http/text-field';

/** A number typed the Italian way ("12,5") or the other ("12.5"); empty is missing. */
const numero = (message: string) => z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim();
    if (t === '') return undefined;
    // With a comma, dots are thousands separators: "1.250,5" is 1250.5.
    return Number(t.includes(',') ? t.replace(/\./g, '').replace(',', '.') : t);
  },
  z.number({ message }).refine((n) => Number.isFinite(n), { message }),
);
const livello = (message: string) => z.preprocess((v) => (typeof v === 'string' && v !== '' ? Number(v) : v), z.number({ message }).int({ message }).min(1, { message }).max(4, { message }));
const isoDate = z.string({ message: 'Indica la data' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (aaaa-mm-gg)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Data non valida');
const optionalUuid = (message: string) => z.union([z.uuid({ message }), z.literal('')]).optional().transform((v) => v || null);

export const annoSchema = z.object({
  anno: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v), z.number({ message: 'Indica un anno valido' }).int({ message: 'Indica un anno valido' })
    .min(2000, { message: 'Indica un anno tra il 2000 e il 2100' }).max(2100, { message: 'Indica un anno tra il 2000 e il 2100' })),
});

export const lineaSchema = z.object({
  inerente: livello('Scegli il rischio inerente (da 1 a 4)'),
  motivazione_inerente: testoOVuoto({ max: 2_000, multiline: true }),
  vulnerabilita: livello('Scegli la vulnerabilità (da 1 a 4)'),
  motivazione_vulnerabilita: testoOVuoto({ max: 2_000, multiline: true }),
  peso: numero('Indica il peso in percentuale').pipe(z.number().gt(0, 'Il peso deve essere maggiore di 0').max(100, 'Il peso non può superare 100')),
});

export const inviaSchema = z.object({ note: testoOVuoto({ max: 5_000, multiline: true }) });
export const respingiSchema = z.object({ motivazione: testo({ max: 2_000, multiline: true, vuoto: 'Spiega perché l\'autovalutazione torna in bozza' }) });

export const GIUDIZI = ['adeguato', 'parzialmente_adeguato', 'inadeguato'] as const;
export const FREQUENZE = ['continua', 'giornaliera', 'settimanale', 'mensile', 'trimestrale', 'semestrale', 'annuale'] as const;
export const ESITI = ['ok', 'parzialmente', 'ko'] as const;

export const controlloSchema = z.object({
  nome: testo({ max: 200, min: 3, vuoto: 'Indica il nome del controllo' }),
  area: testo({ max: 200, vuoto: 'Indica l\'area del controllo' }),
  linea_id: optionalUuid('Linea di business non valida'),
  responsabile: testo({ max: 200, vuoto: 'Indica il responsabile del controllo' }),
  frequenza: z.enum(FREQUENZE, { message: 'Scegli la frequenza' }),
  disegno: z.enum(GIUDIZI, { message: 'Scegli il giudizio sul disegno' }),
  efficacia: z.enum(GIUDIZI, { message: 'Scegli il giudizio sull\'efficacia' }),
  descrizione: testoOVuoto({ max: 5_000, multiline: true }),
});

export const testSchema = z.object({
  data: isoDate,
  esito: z.enum(ESITI, { message: 'Scegli l\'esito del test' }),
  note: testoOVuoto({ max: 5_000, multiline: true }),
}).refine((v) => v.esito === 'ok' || v.note.length > 0, { path: ['note'], message: 'Descrivi cosa non ha funzionato' });

export const rafSchema = z.object({
  appetito: numero('Indica la propensione al rischio').pipe(z.number().min(0, 'Il valore non può essere negativo')),
  tolleranza: numero('Indica la soglia di tolleranza').pipe(z.number().min(0, 'Il valore non può essere negativo')),
  capacita: numero('Indica la capacità di rischio').pipe(z.number().min(0, 'Il valore non può essere negativo')),
  valore_manuale: z.union([z.literal('').transform(() => null), numero('Valore non valido')]).optional().transform((v) => v ?? null),
  descrizione: testoOVuoto({ max: 2_000, multiline: true }),
}).superRefine((v, ctx) => {
  if (v.tolleranza < v.appetito) ctx.addIssue({ code: 'custom', path: ['tolleranza'], message: 'La tolleranza non può essere inferiore alla propensione' });
  if (v.capacita < v.tolleranza) ctx.addIssue({ code: 'custom', path: ['capacita'], message: 'La capacità non può essere inferiore alla tolleranza' });
});

export const decisioneSchema = z.object({
  data: isoDate,
  oggetto: testo({ max: 200, min: 3, vuoto: 'Indica l\'oggetto della decisione' }),
  decisione: testo({ max: 4_000, multiline: true, vuoto: 'Scrivi la decisione presa' }),
  decisa_da: testo({ max: 200, vuoto: 'Indica chi ha deciso (organo o persona)' }),
  motivazione: testoOVuoto({ max: 4_000, multiline: true }),
  autovalutazione_id: optionalUuid('Autovalutazione non valida'),
  metrica_id: optionalUuid('Metrica non valida'),
});
