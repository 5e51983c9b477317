import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';

/**
 * The UIF's phenomenon codes (fenomeni) valid from 1 February 2024: data/reference/uif-fenomeni-sos.json,
 * a copy of ../shared/data/regulatory/uif/fenomeni-sos.json (the application never reads
 * ../shared at run time). The anomaly indicators come from the monitoring area (same annex).
 */
export interface Fenomeno { codice: string; descrizione: string; riferimenti: string }

let cached: Fenomeno[] | undefined;
export function fenomeniSos(): Fenomeno[] {
  cached ??= (JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'uif-fenomeni-sos.json'), 'utf8')) as { fenomeni: Fenomeno[] })
    .fenomeni.map((f) => ({ codice: f.codice, descrizione: f.descrizione, riferimenti: f.riferimenti }));
  return cached;
}
export const isFenomeno = (codice: string) => fenomeniSos().some((f) => f.codice === codice);
