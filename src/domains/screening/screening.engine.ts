import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { canonicalJson } from '../../lib/canonical-json';
import { getSetting } from '../admin';
import { appendAudit } from '../audit';
import type { ScreeningSubjectInput } from '../../../workflows/screening/screening.contract';
import { entryHash } from './lib/diff-lists';
import type { Screener, ScreeningHit, ScreeningQuery } from './lib/match/screener';

/** Screening a tenant's subject and turning hits into matches. Runs inside withTenant. */

export interface SubjectRow {
  id: string;
  cod_azienda: string;
  cod_anagrafe: string | null;
  tipo: 'person' | 'company';
  nome: string;
  data_nascita: string | null;
  nazionalita: string | null;
  wallets: string[];
  last_screened_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface Thresholds { review: number; match: number }

export async function readThresholds(trx: Knex.Transaction, codAzienda: string): Promise<Thresholds> {
  const [review, match] = await Promise.all([
    getSetting(trx, 'screening.review_threshold', codAzienda), getSetting(trx, 'screening.match_threshold', codAzienda),
  ]);
  return { review: Number(review), match: Number(match) };
}

const norm = (s: string | null | undefined) => (s ?? '').normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** What a suppression remembers of the subject: a change to any of it raises the pair again. */
export function subjectKey(s: Pick<SubjectRow, 'tipo' | 'nome' | 'data_nascita' | 'nazionalita' | 'wallets'>): string {
  return createHash('sha256').update(canonicalJson({
    tipo: s.tipo, nome: norm(s.nome), data_nascita: norm(s.data_nascita), nazionalita: norm(s.nazionalita),
    wallets: [...(s.wallets ?? [])].map((w) => w.trim()).sort(),
  })).digest('hex');
}

export function toQuery(s: Pick<SubjectRow, 'tipo' | 'nome' | 'data_nascita' | 'nazionalita' | 'wallets'>): ScreeningQuery {
  return {
    name: s.nome, schema: s.tipo === 'person' ? 'Person' : 'Company', wallets: s.wallets ?? [],
    ...(s.data_nascita ? { birthDate: s.data_nascita } : {}), ...(s.nazionalita ? { nationality: s.nazionalita } : {}),
  };
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

/** The scorer's explanation as stored with a match and shown on its page. */
export function hitBreakdown(h: ScreeningHit, t: Thresholds) {
  const ns = h.nameScore;
  return {
    score: r3(h.score), kind: h.kind, alert: h.score >= t.match, thresholds: t,
    matched_name: h.matchedName ?? null, matched_alias_weak: h.matchedAliasWeak ?? false,
    name: ns ? {
      score: r3(ns.score), query_coverage: r3(ns.queryCoverage), candidate_coverage: r3(ns.candidateCoverage),
      pairs: ns.pairs, unmatched_query: ns.unmatchedQuery, unmatched_candidate: ns.unmatchedCandidate, rule: ns.rule ?? null,
    } : null,
    factors: h.factors, notes: h.notes,
  };
}

export function hitView(h: ScreeningHit, t: Thresholds) {
  return {
    list_name: h.entry.list, entry_id: h.entry.id, entry_name: h.entry.name, schema: h.entry.schema,
    score: r3(h.score), alert: h.score >= t.match, breakdown: hitBreakdown(h, t),
  };
}

export async function getSubject(trx: Knex.Transaction, id: string): Promise<SubjectRow | undefined> {
  return trx('screening_subjects').where({ id }).first();
}

/** Creates the subject, or updates the one with the same cod_anagrafe. */
export async function upsertSubject(trx: Knex.Transaction, codAzienda: string, input: ScreeningSubjectInput, actor: string): Promise<SubjectRow> {
  const data = {
    tipo: input.tipo, nome: input.nome, data_nascita: input.data_nascita ?? null, nazionalita: input.nazionalita ?? null,
    wallets: input.wallets ?? [],
  };
  const key = subjectKey(data);
  // Without cod_anagrafe the same data is the same subject, so a repeated check adds nothing new.
  const existing = input.cod_anagrafe
    ? await trx('screening_subjects').where({ cod_anagrafe: input.cod_anagrafe }).forUpdate().first()
    : await trx('screening_subjects').whereNull('cod_anagrafe').where({ subject_key: key }).orderBy('created_at').forUpdate().first();
  if (existing && !input.cod_anagrafe) return existing as SubjectRow;
  if (existing) {
    const [row] = await trx('screening_subjects').where({ id: existing.id }).update({ ...data, subject_key: key, updated_at: new Date() }).returning('*');
    await appendAudit(trx, { codAzienda, actor, action: 'screening.subject.update', entityType: 'screening_subject', entityId: existing.id, data: { nome: data.nome, cod_anagrafe: input.cod_anagrafe } });
    return row as SubjectRow;
  }
  const id = randomUUID();
  const [row] = await trx('screening_subjects').insert({ id, cod_azienda: codAzienda, cod_anagrafe: input.cod_anagrafe ?? null, ...data, subject_key: key }).returning('*');
  await appendAudit(trx, { codAzienda, actor, action: 'screening.subject.create', entityType: 'screening_subject', entityId: id, data: { nome: data.nome, tipo: data.tipo, cod_anagrafe: input.cod_anagrafe ?? null } });
  return row as SubjectRow;
}

export interface ScreenOutcome {
  hits: ScreeningHit[];
  created: { id: string; list_name: string; entry_id: string; score: number }[];
  suppressed: number;
}

/**
 * Screens one subject and records a match for each hit at or above the review threshold,
 * except pairs a resolved false positive suppressed and pairs already recorded (the unique
 * index on subject + entry + entry hash makes a re-screen idempotent).
 */
export async function screenSubject(trx: Knex.Transaction, p: {
  codAzienda: string; subject: SubjectRow; screener: Screener; thresholds: Thresholds; actor: string; importRunId?: string;
}): Promise<ScreenOutcome> {
  const hits = p.screener.screen(toQuery(p.subject), { reviewThreshold: p.thresholds.review });
  const key = subjectKey(p.subject);
  const created: ScreenOutcome['created'] = [];
  let suppressed = 0;
  for (const h of hits) {
    const hash = entryHash(h.entry);
    const sup = await trx('screening_suppressions').where({ subject_key: key, list_name: h.entry.list, entry_id: h.entry.id, entry_hash: hash }).first('id');
    if (sup) { suppressed++; continue; }
    const id = randomUUID();
    const rows = await trx('screening_matches').insert({
      id, cod_azienda: p.codAzienda, subject_id: p.subject.id, list_name: h.entry.list, entry_id: h.entry.id, entry_hash: hash,
      score: h.score, breakdown: JSON.stringify(hitBreakdown(h, p.thresholds)), stato: 'open', import_run_id: p.importRunId ?? null,
    }).onConflict(['cod_azienda', 'subject_id', 'list_name', 'entry_id', 'entry_hash']).ignore().returning('id');
    if (!rows.length) continue;
    created.push({ id, list_name: h.entry.list, entry_id: h.entry.id, score: r3(h.score) });
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.actor, action: 'screening.match.create', entityType: 'screening_match', entityId: id,
      data: { subject_id: p.subject.id, list_name: h.entry.list, entry_id: h.entry.id, score: r3(h.score), ...(p.importRunId ? { import_run_id: p.importRunId } : {}) },
    });
  }
  await trx('screening_subjects').where({ id: p.subject.id }).update({ last_screened_at: new Date() });
  return { hits, created, suppressed };
}
