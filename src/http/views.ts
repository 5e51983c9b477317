import nunjucks from 'nunjucks';
import { join } from 'node:path';
import { projectRoot } from '../config';
import { jsonForScript } from './json-script';

const dateFmt = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeFmt = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit',
});
const eurFmt = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
const numFmt = new Intl.NumberFormat('it-IT');

const toDate = (v: unknown) => (v instanceof Date ? v : v ? new Date(String(v)) : undefined);

export function createViews(): nunjucks.Environment {
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(join(projectRoot, 'views'), { noCache: process.env.NODE_ENV === 'development' }), {
    autoescape: true,
    throwOnUndefined: false,
  });
  env.addFilter('data', (v: unknown) => { const d = toDate(v); return d ? dateFmt.format(d) : ''; });
  env.addFilter('dataora', (v: unknown) => { const d = toDate(v); return d ? dateTimeFmt.format(d) : ''; });
  env.addFilter('euro', (v: unknown) => (v === null || v === undefined ? '' : eurFmt.format(Number(v))));
  env.addFilter('numero', (v: unknown) => (v === null || v === undefined ? '' : numFmt.format(Number(v))));
  env.addFilter('json', (v: unknown) => JSON.stringify(v, null, 2));
  env.addFilter('json_script', (v: unknown) => new nunjucks.runtime.SafeString(jsonForScript(v)));
  env.addFilter('qs', (params: Record<string, unknown>, overrides: Record<string, unknown> = {}) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...overrides })) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    return q.toString();
  });
  return env;
}
