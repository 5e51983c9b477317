import type { z } from 'zod';
import type { SubjectType, ValidationIssue, WalletProof } from '../../../workflows/onboarding/onboarding.contract';
import { SUBJECT_TYPES } from '../../../workflows/onboarding/onboarding.contract';
import { ONBOARDING_DEFAULTS } from '../../../workflows/onboarding/onboarding.machine';
import { cddAnswersSchema } from './onboarding.cdd-schema';
import {
  ANAGRAFE_SCHEMAS, countriesSchema, requiredDocuments, travelRuleDeclarationSchema, uboListSchema,
} from './onboarding.schemas';

/**
 * Completeness of an application at submission, against the strict schemas (drafts are
 * saved leniently). Every issue names its field path, an Italian message and the wizard
 * step (applicableSteps numbering) where the applicant fixes it.
 *
 * Paths: `subject_type`; `anagrafe.<field…>`; `ubo.titolari[.<i>.<field>]`;
 * `documenti.<tipo>.<riferimento>`; `cdd_answers.<question>` (or `cdd_answers.versione`);
 * `countries[.<i>.<field>]`; `travel_rule`; `wallets.<id>.prova`.
 */

export interface ApplicationData {
  tipo_soggetto: string | null;
  anagrafe: unknown;
  /** `{ titolari: [...] }` as stored (an array is accepted too). */
  ubo: unknown;
  cdd_answers: unknown;
  cdd_schema_version: string | null;
  /** Array of `{ paese, ruolo }` as stored. */
  countries: unknown;
  travel_rule: { stato?: string; dichiarazione?: unknown } | null;
  documents: { tipo: string; riferimento: string }[];
  wallets: { id: string; tipo: string; volume_annuo_eur?: number | string | null; prova?: WalletProof | null }[];
}

export interface ValidationResult { ok: boolean; issues: ValidationIssue[] }

export const STEP = { type: 0, data: 1, owners: 2, identity: 3, company: 4, cdd: 5, countries: 6, travelRule: 7 } as const;

const isSubjectType = (v: unknown): v is SubjectType => typeof v === 'string' && (SUBJECT_TYPES as readonly string[]).includes(v);

const joinPath = (prefix: string, path: readonly PropertyKey[]) =>
  [prefix, ...path.map((p) => String(p))].filter((s) => s !== '').join('.');

// zod's own messages are English; the schemas give Italian ones for everything a person types.
const italian = (m: string) => (/^Invalid|^Expected|^Unrecognized/i.test(m) ? 'Valore non valido' : m);

const zodIssues = (err: z.ZodError, prefix: string, step: number): ValidationIssue[] =>
  err.issues.map((i) => ({ path: joinPath(prefix, i.path), message: italian(i.message), step }));

/**
 * Parses with every missing nested object taken as empty, so a section never filled in
 * reports its own fields ("Indica la via") rather than one "object expected".
 */
function parseDeep(schema: z.ZodType, value: unknown) {
  const v: unknown = structuredClone(value ?? {});
  let r = schema.safeParse(v);
  for (let round = 0; round < 5 && !r.success && v && typeof v === 'object'; round++) {
    const holes = r.error.issues.filter((i) => i.code === 'invalid_type' && i.expected === 'object' && i.path.length > 0);
    let filled = 0;
    for (const h of holes) {
      let node = v as Record<PropertyKey, unknown>;
      for (const k of h.path.slice(0, -1)) node = (node[k] ?? {}) as Record<PropertyKey, unknown>;
      const last = h.path[h.path.length - 1]!;
      if (node[last] === undefined || node[last] === null) { node[last] = {}; filled++; }
    }
    if (!filled) break;
    r = schema.safeParse(v);
  }
  return r;
}

/** The owners of a stored `ubo` column, whichever shape it has. */
export function uboOwners(ubo: unknown): Record<string, unknown>[] {
  if (Array.isArray(ubo)) return ubo as Record<string, unknown>[];
  const t = (ubo as { titolari?: unknown } | null)?.titolari;
  return Array.isArray(t) ? (t as Record<string, unknown>[]) : [];
}

/** The flat answers of a stored `cdd_answers` column (`{ risposte }` is accepted too). */
export function cddAnswers(stored: unknown): Record<string, unknown> {
  if (!stored || typeof stored !== 'object') return {};
  const r = (stored as { risposte?: unknown }).risposte;
  return (r && typeof r === 'object' ? r : stored) as Record<string, unknown>;
}

const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

/** A self-hosted wallet's proof counts unless the signature was checked and failed. */
const hasProof = (p: WalletProof | null | undefined) => !!p && (p.metodo === 'dichiarazione' || p.verificata !== false);

export function validateApplication(d: ApplicationData): ValidationResult {
  const issues: ValidationIssue[] = [];
  const tipo = isSubjectType(d.tipo_soggetto) ? d.tipo_soggetto : null;
  if (!tipo) issues.push({ path: 'subject_type', message: 'Scegli il tipo di cliente', step: STEP.type });

  if (tipo) {
    const a = parseDeep(ANAGRAFE_SCHEMAS[tipo], d.anagrafe);
    if (!a.success) issues.push(...zodIssues(a.error, 'anagrafe', STEP.data));
  }

  const owners = uboOwners(d.ubo);
  if (tipo === 'societa') {
    if (!owners.length) {
      issues.push({ path: 'ubo.titolari', message: 'Indica almeno un titolare effettivo', step: STEP.owners });
    } else {
      const u = parseDeep(uboListSchema, { titolari: owners });
      if (!u.success) issues.push(...zodIssues(u.error, 'ubo', STEP.owners));
      owners.forEach((o, i) => {
        const pct = num(o.percentuale);
        if ((o.tipo_controllo === 'proprieta_diretta' || o.tipo_controllo === 'proprieta_indiretta') && pct !== null && pct <= 0) {
          issues.push({ path: `ubo.titolari.${i}.percentuale`, message: 'Per un titolare per proprietà indica una percentuale maggiore di zero', step: STEP.owners });
        }
      });
    }
  }

  if (tipo) {
    const ownersWithId = tipo === 'societa'
      ? owners.filter((o) => typeof o.id === 'string').map((o) => ({ id: o.id as string, nome: o.nome as string | undefined, cognome: o.cognome as string | undefined }))
      : [];
    const have = new Set(d.documents.map((x) => `${x.tipo}|${x.riferimento}`));
    for (const r of requiredDocuments(tipo, ownersWithId)) {
      if (!have.has(`${r.tipo}|${r.riferimento}`)) issues.push({ path: `documenti.${r.tipo}.${r.riferimento}`, message: `Manca il documento: ${r.descrizione}`, step: r.step });
    }
  }

  const answers = cddAnswers(d.cdd_answers);
  if (!d.cdd_schema_version && !Object.keys(answers).length) {
    issues.push({ path: 'cdd_answers', message: 'Rispondi al questionario di adeguata verifica', step: STEP.cdd });
  } else {
    const c = cddAnswersSchema(d.cdd_schema_version, tipo).safeParse({ versione: d.cdd_schema_version, risposte: answers });
    if (!c.success) issues.push(...zodIssues(c.error, 'cdd_answers', STEP.cdd).map((i) => ({ ...i, path: i.path.replace(/^cdd_answers\.risposte/, 'cdd_answers') })));
  }

  const paesi = Array.isArray(d.countries) ? d.countries : [];
  const c = countriesSchema.safeParse({ paesi });
  if (!c.success) issues.push(...zodIssues(c.error, 'countries', STEP.countries).map((i) => ({ ...i, path: i.path.replace(/^countries\.paesi/, 'countries') })));

  if (d.wallets.length) {
    if (d.travel_rule?.stato !== 'completed') {
      issues.push({ path: 'travel_rule', message: 'Firma e completa la dichiarazione sui wallet (travel rule)', step: STEP.travelRule });
    } else {
      const t = travelRuleDeclarationSchema.safeParse(d.travel_rule.dichiarazione ?? {});
      if (!t.success) issues.push(...zodIssues(t.error, 'travel_rule.dichiarazione', STEP.travelRule));
    }
    for (const w of d.wallets) {
      const volume = num(w.volume_annuo_eur) ?? 0;
      if (w.tipo === 'self_hosted' && volume > ONBOARDING_DEFAULTS.selfHostedProofThresholdEur && !hasProof(w.prova)) {
        issues.push({ path: `wallets.${w.id}.prova`, message: 'Per un wallet self-hosted oltre 1.000 € annui serve la prova del controllo (firma di un messaggio o dichiarazione)', step: STEP.travelRule });
      }
    }
  }

  return { ok: issues.length === 0, issues };
}
