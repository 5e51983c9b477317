import { z } from 'zod';
import { SEED_FASI, SEED_STATI } from '../../../../workflows/monitoring-seed/monitoring-seed.contract';

export const MIN_SEED_CUSTOMERS = 10;
export const MAX_SEED_CUSTOMERS = 20_000;

/** POST /api/engine/seed: the year's size, seed and months; a superadmin names the tenant. */
export const startSeedSchema = z.object({
  clienti: z.number({ message: 'Clienti: un numero intero' }).int('Clienti: un numero intero')
    .min(MIN_SEED_CUSTOMERS, `Clienti: almeno ${MIN_SEED_CUSTOMERS}`).max(MAX_SEED_CUSTOMERS, `Clienti: al massimo ${MAX_SEED_CUSTOMERS.toLocaleString('it-IT')}`).default(300),
  seed: z.union([z.string().trim().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Seed: da 1 a 64 caratteri tra lettere, cifre e _ . : -'), z.number().int().nonnegative().transform(String)],
    { message: 'Seed: un testo o un numero intero' }).optional(),
  mesi: z.number({ message: 'Mesi: un numero intero' }).int('Mesi: un numero intero').min(1, 'Mesi: almeno 1').max(24, 'Mesi: al massimo 24').default(12),
  cod_azienda: z.string().trim().min(1).max(50).optional(),
}).strict();
export type StartSeedInput = z.infer<typeof startSeedSchema>;

export const seedQuery = z.object({ cod_azienda: z.string().trim().min(1).max(50).optional() });

const importProgress = z.object({
  tipo: z.string(), id: z.string(), stato: z.string(), righe_lette: z.number(), righe_importate: z.number(), righe_gia_presenti: z.number(), righe_errate: z.number(),
});

export const seedRecord = z.object({
  id: z.string(), cod_azienda: z.string(), clienti: z.number(), seed: z.string(), mesi: z.number(), storico_dal: z.string(), dal: z.string(), al: z.string(),
  stato: z.enum(SEED_STATI), fase: z.enum(SEED_FASI), piantati: z.record(z.string(), z.number()), righe: z.record(z.string(), z.number()),
  eventi_kyt: z.number(), regole_attivate: z.number(), alert: z.number(),
  /** What the last phase opened on the year: cases escalated from alerts, CDD tasks, risk assessments (empty until then). */
  pratiche: z.object({ casi: z.number(), pratiche_cdd: z.number(), valutazioni: z.number() }).partial(),
  errore: z.string().nullable(), workflow_id: z.string(),
  created_by: z.string(), created_at: z.string(), started_at: z.string().nullable(), finished_at: z.string().nullable(),
  /** Each import's progress, and the replay's (customers done of the total). */
  importazioni: z.array(importProgress),
  replay: z.object({ id: z.string(), stato: z.string(), elaborati: z.number(), totale: z.number(), alert_nuovi: z.number() }).nullable(),
});
