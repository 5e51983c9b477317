import assert from 'node:assert/strict';
import { AUDIT_ACTION_LABELS } from '../../src/domains/audit/audit.labels';
import * as cases from '../../src/domains/cases/cases.labels';
import * as cdd from '../../src/domains/cdd/cdd.labels';
import * as monitoring from '../../src/domains/monitoring/monitoring.labels';
import * as onboarding from '../../src/domains/onboarding/onboarding-admin.labels';
import * as outbox from '../../src/domains/outbox/outbox.labels';
import * as recordsLabels from '../../src/domains/records/records.labels';
import { RAPPORTO_TIPO_LABELS } from '../../src/domains/records/anagrafe.labels';
import * as screening from '../../src/domains/screening/screening.labels';
import * as verifications from '../../src/domains/verifications/verifications.vocabulary';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { clientFor, seedPageCatalogue, type PageCatalogue } from '../helpers/page-catalogue';

/** The records' vocabularies; the names of the record's fields are ordinary words of sentences ("un'email"), not identifiers. */
const { CAMPO_ANAGRAFE_LABELS: _fieldNames, ...records } = recordsLabels;

/** Pages whose purpose is to show identifiers as they are (the API reference). */
const TECHNICAL = new Set(['api-docs']);

const strip = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
/** Keys that are also plain Italian words of the pages' sentences ("il cliente in anagrafe"). */
const ITALIAN_WORDS = new Set(['altro', 'transizione', 'anagrafe', 'aggiornamento', 'valido', 'attiva', 'evento', 'manuale', 'giornaliero']);

/**
 * Every value a label dictionary translates, with its label. Values whose label is the same
 * word (indagine → Indagine, documento → Documento d'identità) are ordinary Italian and may
 * appear in any sentence, so only identifiers are looked for.
 */
function translatedValues(): Map<string, string> {
  const out = new Map<string, string>();
  const add = (key: string, label: unknown) => {
    const text = typeof label === 'string' ? label : label && typeof label === 'object' && 'label' in label ? String((label as { label: unknown }).label) : undefined;
    if (!text || strip(text).includes(strip(key)) || ITALIAN_WORDS.has(key)) return;
    out.set(key, text);
  };
  const walk = (name: string, value: unknown) => {
    // A vocabulary list (TIPI_NODO = ['persona_fisica', ...]) names values, it does not translate them.
    if (/TONES$|MESSAGES$/.test(name) || !value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [k, v] of Object.entries(value)) {
      if (v && typeof v === 'object' && !('label' in v)) walk(k, v);
      else add(k, v);
    }
  };
  for (const mod of [cases, cdd, monitoring, onboarding, outbox, screening, records, verifications, { RAPPORTO_TIPO_LABELS }]) for (const [name, value] of Object.entries(mod)) walk(name, value);
  for (const [k, v] of Object.entries(AUDIT_ACTION_LABELS)) add(k, v);
  return out;
}

/** What a person reads: no markup, attributes, scripts, or the blocks that show identifiers on purpose (code, raw data). */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style|template|pre|code|textarea|svg)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

const ISO_DATE = /(?<![\d/.-])\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d-])/g;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The problems of one page's visible text: ISO dates and identifiers that have an Italian label. */
export function formatProblems(text: string, values: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(ISO_DATE)) problems.push(`unformatted date «${m[0]}»`);
  for (const [key, label] of values) {
    const re = new RegExp(`(?<![\\w.-])${escape(key)}(?![\\w-])`);
    const m = re.exec(text);
    if (m) problems.push(`raw value «${key}» (label: «${label}») in «…${text.slice(Math.max(0, m.index - 40), m.index + key.length + 40)}…»`);
  }
  if (/us_ofac_sdn_\d{4}_\d{2}/.test(text)) problems.push('a list id instead of its name');
  return problems;
}

describe('every page speaks Italian: formatted dates and labels, never raw values', function () {
  this.timeout(900_000);
  let env: TestEnv;
  let catalogue: PageCatalogue;

  before(async () => {
    env = await getTestEnv();
    catalogue = await seedPageCatalogue(env);
  });

  it('the check itself finds what it must', () => {
    const values = translatedValues();
    assert.deepEqual(formatProblems('Nato il 08/01/1984, aperto il 23/11/2026 10:00', values), []);
    assert.equal(formatProblems('Data di nascita 1984-01-08', values).length, 1);
    assert.equal(formatProblems('Creato 2026-11-23T09:00:00.000Z', values).length, 1);
    assert.match(formatProblems('Stato: in_review', values).join(), /in_review/);
    assert.match(formatProblems('Azione case.create', values).join(), /case\.create/);
    assert.deepEqual(formatProblems('Tipo: Indagine, documento allegato, Aperto, il cliente in anagrafe', values), []);
    assert.match(formatProblems('Lista un_sc_sanctions', values).join(), /un_sc_sanctions/);
    assert.deepEqual(visibleText('<time datetime="2026-11-23T09:00:00Z">23/11/2026</time><code>case.create</code>').trim(), '23/11/2026');
  });

  it('no built page shows an ISO date or an untranslated value', async () => {
    const values = translatedValues();
    const signedIn = new Map<string, TestClient>();
    const problems: string[] = [];
    for (const page of catalogue.pages) {
      if (TECHNICAL.has(page.name)) continue;
      // Applicants get a fresh link each time: a session per page.
      const client = await clientFor(env, page.visitor, page.visitor.kind === 'applicant' ? new Map() : signedIn);
      let r = await client.get(page.path, { accept: 'text/html' });
      // Follow redirects as the browser does (an old path that moved, a step that does not apply).
      for (let hops = 0; r.status >= 300 && r.status < 400 && hops < 5; hops++) {
        const to = new URL(r.headers.get('location') ?? '/', env.baseUrl);
        r = await client.get(to.pathname + to.search, { accept: 'text/html' });
      }
      assert.equal(r.status, page.status ?? 200, `${page.name} (${page.path}): ${r.status}`);
      for (const p of formatProblems(visibleText(r.text), values)) problems.push(`${page.name} (${page.path}): ${p}`);
    }
    assert.deepEqual(problems, []);
  });
});
