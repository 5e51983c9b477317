import { z } from 'zod';
import { listParamsShape, listResponse } from '../../../kit/list';
import { CLASSI } from '../risk.types';
import { riskMatrixCellList } from './views.list';

const classCounts = z.object(Object.fromEntries(CLASSI.map((c) => [c, z.number().int()])) as Record<(typeof CLASSI)[number], z.ZodNumber>);

export const portfolioResponse = z.object({
  totale_clienti: z.number().int(),
  valutati: z.number().int(),
  mai_valutati: z.number().int(),
  punteggio_medio: z.number().nullable(),
  per_classe: classCounts,
  per_segmento: z.array(z.object({ segmento: z.string(), totale: z.number().int(), per_classe: classCounts })),
  per_paese: z.array(z.object({ paese: z.string().nullable(), totale: z.number().int(), per_classe: classCounts })),
});

export const distributionResponse = z.object({
  fasce: z.array(z.object({ da: z.number().nullable(), a: z.number().nullable(), label: z.string(), clienti: z.number().int() })),
  mesi: z.array(z.object({ mese: z.string(), per_classe: classCounts, totale: z.number().int() })),
});

export const heatmapResponse = z.object({
  classi: z.array(z.enum(CLASSI)),
  segmenti: z.array(z.object({ segmento: z.string(), totale: z.number().int(), per_classe: classCounts })),
  paesi: z.array(z.object({ paese: z.string().nullable(), totale: z.number().int(), per_classe: classCounts })),
});

export const matrixResponse = z.object({
  celle: z.array(z.array(z.number().int())).describe('celle[probabilita-1][impatto-1]'),
  totale: z.number().int(),
});

const emptyText = z.literal('').transform(() => undefined);
export const matrixCellQuery = z.object({
  ...listParamsShape(riskMatrixCellList),
  q: z.string().trim().max(200).optional().or(emptyText),
});
export type MatrixCellQuery = z.infer<typeof matrixCellQuery>;

export const matrixCellItem = z.object({
  cod_anagrafe: z.string(), denominazione: z.string(), tipo_soggetto: z.string(), paese_residenza: z.string().nullable(),
  punteggio: z.number().int(), classe_calcolata: z.enum(CLASSI), classe: z.enum(CLASSI), probabilita: z.number().int(), impatto: z.number().int(),
  calcolato_at: z.string(), valutazione_id: z.string().nullable(),
});
export const matrixCellResponse = listResponse(matrixCellItem).extend({ probabilita: z.number().int(), impatto: z.number().int() });

/** A matrix coordinate from the path: 1..4, anything else a 400 (the path names no cell). */
export const coordinate = z.coerce.number().int().min(1).max(4);
