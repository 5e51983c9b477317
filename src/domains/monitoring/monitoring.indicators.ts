import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';

/**
 * The UIF anomaly indicators of 12 May 2023 (data/reference/uif-indicatori-2023.json, with its
 * provenance note): a rule version relates to sub-indices by code ("9.18"). Read once; the
 * application never reads ../shared at run time.
 */
interface IndicatoriFile {
  indicatori: { numero: number; sezione: string; titolo: string; sub_indici: { codice: string; testo: string }[] }[];
}

export interface SubIndice { codice: string; indicatore: number; sezione: string; testo: string }

let cached: { byCode: Map<string, SubIndice>; indicatori: IndicatoriFile['indicatori'] } | undefined;

function load() {
  if (cached) return cached;
  const file = JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'uif-indicatori-2023.json'), 'utf8')) as IndicatoriFile;
  const byCode = new Map<string, SubIndice>();
  for (const i of file.indicatori) {
    for (const s of i.sub_indici) byCode.set(s.codice, { codice: s.codice, indicatore: i.numero, sezione: i.sezione, testo: s.testo });
  }
  cached = { byCode, indicatori: file.indicatori };
  return cached;
}

/** One sub-index by its code, or undefined. */
export const subIndice = (codice: string): SubIndice | undefined => load().byCode.get(codice);

/** Every indicator with its sub-indices, in the annex's order (the rule form's choices). */
export const indicatoriUif = () => load().indicatori.map((i) => ({
  numero: i.numero, sezione: i.sezione, titolo: i.titolo, sub_indici: i.sub_indici.map((s) => ({ codice: s.codice, testo: s.testo })),
}));

/** The codes that are not sub-indices of the annex, each with its place in the list. */
export function unknownIndicatori(codes: readonly string[]): { index: number; codice: string }[] {
  const { byCode } = load();
  return codes.map((codice, index) => ({ index, codice })).filter((c) => !byCode.has(c.codice));
}
