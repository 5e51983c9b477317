import { numero } from '../../../http/format';

/**
 * An alert's evidence (what the rule read: values, thresholds, the rule's reads) as rows a person
 * reads: a key in words ("somma_contanti_30g" → "Somma contanti 30g"), a value in Italian format.
 * Nested objects become dotted keys, up to a few levels; the page also shows the raw JSON.
 */
export interface EvidenceRow { chiave: string; valore: string }

const words = (k: string) => {
  const s = k.replace(/[_.]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
};

function text(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'sì' : 'no';
  if (typeof v === 'number') return numero(v);
  // A day as Italians write it; any other text as recorded.
  if (typeof v === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}` : v;
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'object' || x === null) ? v.map(text).join(', ') : JSON.stringify(v);
  return JSON.stringify(v);
}

export function evidenceRows(evidenza: Record<string, unknown> | null | undefined, max = 60): EvidenceRow[] {
  const out: EvidenceRow[] = [];
  const walk = (o: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [k, v] of Object.entries(o)) {
      if (out.length >= max) return;
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && !Array.isArray(v) && depth < 3) walk(v as Record<string, unknown>, key, depth + 1);
      else out.push({ chiave: words(key), valore: text(v) });
    }
  };
  walk(evidenza ?? {}, '', 0);
  return out;
}
