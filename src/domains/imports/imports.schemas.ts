import { z } from 'zod';
import { listParamsShape } from '../../kit/list';
import { IMPORT_TIPI } from './import-kind';
import { IMPORT_STATI, importJobsList } from './imports.repo';

export const importTipoParam = z.enum(IMPORT_TIPI, { message: 'Tipo di importazione non valido: clienti, rapporti o movimenti' });

export const importJobResponse = z.object({
  id: z.string(),
  tipo: z.enum(IMPORT_TIPI),
  formato: z.enum(['csv', 'xlsx']),
  nome_file: z.string(),
  dimensione: z.number().int(),
  stato: z.enum(IMPORT_STATI),
  righe_lette: z.number().int(),
  righe_valide: z.number().int(),
  righe_importate: z.number().int(),
  righe_gia_presenti: z.number().int(),
  righe_errate: z.number().int(),
  errore: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  workflow_id: z.string(),
  workflow_url: z.string(),
  errori_url: z.string(),
});

const blank = z.literal('').transform(() => undefined);
export const listImportsQuery = z.object({
  stato: z.enum(IMPORT_STATI).optional().or(blank),
  tipo: z.enum(IMPORT_TIPI).optional().or(blank),
  ...listParamsShape(importJobsList),
});
