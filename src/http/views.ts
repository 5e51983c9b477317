import nunjucks from 'nunjucks';
import { join } from 'node:path';
import { projectRoot } from '../config';
import { linkInternalPaths } from './internal-links';
import { jsonForScript } from './json-script';
import { quota } from './share-format';
import { data, dataora, durata, etichetta, importo, numero, percentuale } from './format';

/** Nunjucks keyword arguments arrive as a last object argument: numero(vuoto='0'). */
type Kw = Record<string, unknown> & { __keywords?: true };
const kw = (args: unknown[]): [unknown[], Kw] => {
  const last = args[args.length - 1] as Kw | undefined;
  return last && typeof last === 'object' && last.__keywords ? [args.slice(0, -1), last] : [args, {}];
};
const str = (v: unknown) => (v === undefined ? undefined : String(v));
const int = (v: unknown) => (v === undefined || v === null ? undefined : Number(v));

/**
 * The one Nunjucks environment of every page, with the Italian formatting filters (src/http/format.ts;
 * docs/ui.md "Formatting and labels" lists them).
 */
export function createViews(): nunjucks.Environment {
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(join(projectRoot, 'views'), { noCache: process.env.NODE_ENV === 'development' }), {
    autoescape: true,
    throwOnUndefined: false,
  });
  // Platform paths in a text written for people (a case from an alert names its page) as links; the rest escaped.
  env.addFilter('collegamenti', (v: unknown) => new nunjucks.runtime.SafeString(linkInternalPaths(String(v ?? ''))));
  env.addFilter('numero', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return numero(v, str(k.vuoto ?? a[0]), int(k.decimali ?? a[1]));
  });
  env.addFilter('importo', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return importo(v, str(k.valuta ?? a[0]) ?? 'EUR', str(k.vuoto ?? a[1]));
  });
  env.addFilter('data', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return data(v, str(k.vuoto ?? a[0]));
  });
  env.addFilter('dataora', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return dataora(v, str(k.vuoto ?? a[0]));
  });
  env.addFilter('durata', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return durata(v, str(k.unita ?? a[0]) ?? 'ms', str(k.vuoto ?? a[1]));
  });
  env.addFilter('percentuale', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return percentuale(v, int(k.decimali ?? a[0]) ?? 0, Boolean(k.frazione ?? a[1]), str(k.vuoto ?? a[2]));
  });
  env.addFilter('quota', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return quota(v, int(k.soglia ?? a[0]), str(k.vuoto ?? a[1]));
  });
  env.addFilter('etichetta', (v: unknown, ...rest: unknown[]) => {
    const [a, k] = kw(rest);
    return etichetta(v, (k.dizionario ?? a[0]) as Parameters<typeof etichetta>[1], str(k.vuoto ?? a[1]));
  });
  env.addFilter('json', (v: unknown) => JSON.stringify(v, null, 2));
  env.addFilter('json_script', (v: unknown) => new nunjucks.runtime.SafeString(jsonForScript(v)));
  env.addFilter('qs', (params: Record<string, unknown>, overrides: Record<string, unknown> = {}) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...overrides })) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    return q.toString();
  });
  return env;
}
