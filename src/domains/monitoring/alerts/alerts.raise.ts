import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { ValidationError } from '../../../http/errors';
import { appendAudits, type AuditInput } from '../../audit';
import { ORIGINI, type Origine } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { TIPOLOGIE, type Tipologia } from '../monitoring.typologies';

/**
 * raiseAlerts: how every evaluation path (real time, daily batch, replay, KYT, and an analyst by
 * hand) turns rule hits into alerts, in the caller's transaction (docs/monitoring.md, "Decisions
 * and alerts").
 *
 * - Deduplicated per customer, rule and window: a hit whose window, stretched by the version's
 *   dedup days, overlaps a non-deleted alert of the same customer and rule (and relationship, for a
 *   rule evaluated per relationship) adds to that alert (one more hit, its last hit, the window's
 *   ends, the highest score, the operations behind it, the latest evidence); otherwise a new alert.
 * - Idempotent: each hit has a key (`chiaveRiscontro`), recorded once per tenant; a hit already
 *   recorded changes nothing, whichever path sends it again.
 * - Concurrent writers of one customer and rule queue on a transaction-scoped advisory lock, so
 *   two evaluations at once never raise two alerts for one window.
 * - Set-based: a call's hits are raised together, one statement per step whatever their number
 *   (the rule versions, the locks, the hit keys seen, the alerts they could add to, the new alerts,
 *   the updated ones, the hit rows, the audit events, the movements), exactly as if raised one
 *   after the other in the call's order (each sees the ones before it). A replay's batch of 200
 *   customers raises its hundreds of hits in about ten statements instead of seven per hit.
 */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_EVIDENCE_BYTES = 64 * 1024;

export const alertCandidateSchema = z.object({
  codAnagrafe: z.string().min(1).max(64),
  codRapporto: z.string().min(1).max(64).nullish(),
  /** The rule version that fired; absent only for an alert made by hand (origine 'manuale'). */
  regola: z.object({ codRegola: z.string().min(1).max(64), versione: z.number().int().positive() }).nullish(),
  /** Only for an alert without a rule: the rule's typology otherwise. */
  tipologia: z.enum(TIPOLOGIE).optional(),
  origine: z.enum(ORIGINI),
  punteggio: z.number().int().min(0).max(100),
  /** When the alert is raised: now in real time, the day each hit would have been raised in a replay. */
  dataRilevazione: z.date(),
  finestraDa: z.string().regex(ISO_DAY),
  finestraA: z.string().regex(ISO_DAY),
  /** The hit's identity, unique per tenant (e.g. `<cod_regola>:<versione>:<cod_anagrafe>:<day>` or `<cod_decisione>:<cod_regola>`). */
  chiaveRiscontro: z.string().min(1).max(300),
  codDecisione: z.string().min(1).max(100).nullish(),
  /** What the rule read (values, thresholds), shown on the alert's page. */
  evidenza: z.record(z.string(), z.unknown()).optional().default({}),
  /** The operations behind the hit. */
  movimenti: z.array(z.object({ id: z.uuid(), data_operazione: z.string().regex(ISO_DAY) })).max(5_000).optional().default([]),
}).superRefine((c, ctx) => {
  if (c.finestraDa > c.finestraA) ctx.addIssue({ code: 'custom', path: ['finestraA'], message: 'window end before its start' });
  if (!c.regola && c.origine !== 'manuale') ctx.addIssue({ code: 'custom', path: ['regola'], message: 'only a manual alert has no rule' });
  if (!c.regola && !c.tipologia) ctx.addIssue({ code: 'custom', path: ['tipologia'], message: 'an alert without a rule names its typology' });
  if (Buffer.byteLength(JSON.stringify(c.evidenza ?? {})) > MAX_EVIDENCE_BYTES) ctx.addIssue({ code: 'custom', path: ['evidenza'], message: `evidence over ${MAX_EVIDENCE_BYTES} bytes` });
});
export type AlertCandidate = z.input<typeof alertCandidateSchema>;

export interface RaisedAlert {
  /** The candidate's place in the call. */
  indice: number;
  id: string;
  cod_alert: string;
  /** nuovo: a new alert; aggiornato: the hit added to an existing alert; gia_registrato: the same hit was already recorded (nothing changed). */
  esito: 'nuovo' | 'aggiornato' | 'gia_registrato';
}

interface RuleVersion { id: string; cod_regola: string; versione: number; tipologia: string; livello: 'cliente' | 'rapporto'; finestra_dedup_giorni: number; esito: 'alert' | 'osserva' }

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export interface RaiseOptions {
  /** Who raises them, as the audit trail names it: a user's username for an alert made by hand, a process otherwise. */
  actor?: string;
  /** The id of a new alert made by hand (the request's record id, so a retried request makes the same alert): one candidate then. */
  alertId?: string;
}

type Candidate = z.output<typeof alertCandidateSchema>;

/** The rule versions the candidates name, in one read. */
async function ruleVersions(trx: Knex.Transaction, codAzienda: string, cands: readonly Candidate[]): Promise<Map<string, RuleVersion>> {
  const pairs = new Map<string, [string, number]>();
  for (const c of cands) if (c.regola) pairs.set(`${c.regola.codRegola}:${c.regola.versione}`, [c.regola.codRegola, c.regola.versione]);
  if (!pairs.size) return new Map();
  const rows = await trx('monitoring_regole_versioni as v').join('monitoring_regole as r', 'r.id', 'v.regola_id')
    .where('r.cod_azienda', codAzienda).whereIn(['r.cod_regola', 'v.versione'], [...pairs.values()])
    .select('v.id', 'r.cod_regola', 'v.versione', 'r.tipologia', 'v.livello', 'v.finestra_dedup_giorni', 'v.esito') as RuleVersion[];
  return new Map(rows.map((v) => [`${v.cod_regola}:${v.versione}`, v]));
}

/** An alert as the call sees it while it raises: read from the table (locked) or made by the call. */
interface AlertState {
  id: string; cod_alert?: string; nuovo: boolean; riscontri: number; ultimo: Date; finestra_da: string; finestra_a: string; punteggio: number; stato: string;
  /** The evidence to write: the latest hit's (undefined: unchanged). */
  evidenza?: string;
  /** For a new alert: its row (the first hit's fields). */
  row?: Record<string, unknown>;
  /** For an existing alert: the hits this call added. */
  aggiunti: number;
}

/** What a hit did, in the call's order. */
type Step = { c: Candidate; v?: RuleVersion; alert: AlertState; esito: 'nuovo' | 'aggiornato'; riscontri: number; stato: string } | { c: Candidate; seen: { id: string; cod_alert?: string; alert?: AlertState } };

/**
 * Raises the candidates' alerts in the caller's tenant transaction, as if one after the other (each
 * sees the ones before it). A candidate that is not well formed, or names a rule version the tenant
 * does not have, is a ValidationError (`candidati.<i>.<field>`) and nothing is written by this call.
 */
export async function raiseAlerts(trx: Knex.Transaction, codAzienda: string, candidates: readonly AlertCandidate[], opts: RaiseOptions = {}): Promise<RaisedAlert[]> {
  if (!candidates.length) return [];
  const actor = opts.actor ?? 'sistema:monitoraggio';
  const cands: Candidate[] = candidates.map((raw, indice) => {
    const parsed = alertCandidateSchema.safeParse(raw);
    if (!parsed.success) throw new ValidationError(parsed.error.issues.map((i) => ({ path: ['candidati', indice, ...i.path].join('.'), message: i.message })));
    return parsed.data;
  });
  const versions = await ruleVersions(trx, codAzienda, cands);
  const vs = cands.map((c, indice) => {
    const v = c.regola ? versions.get(`${c.regola.codRegola}:${c.regola.versione}`) : undefined;
    if (c.regola && !v) throw new ValidationError([{ path: `candidati.${indice}.regola`, message: `rule ${c.regola.codRegola} v${c.regola.versione} not found` }]);
    // A version that only observes records its hits in the decision, never as alerts.
    if (v?.esito === 'osserva') throw new ValidationError([{ path: `candidati.${indice}.regola`, message: `rule ${c.regola!.codRegola} v${v.versione} only observes: it raises no alert` }]);
    if (v?.livello === 'rapporto' && !c.codRapporto) throw new ValidationError([{ path: `candidati.${indice}.codRapporto`, message: 'a rule evaluated per relationship names the relationship' }]);
    return v;
  });
  // A hand-made alert is a deliberate act: never merged into another.
  const manualIds = cands.map((c, i) => (vs[i] ? undefined : (opts.alertId ?? randomUUID())));
  const dedups = cands.map((c, i) => {
    const v = vs[i];
    return v ? `${c.regola!.codRegola}|${c.codAnagrafe}|${v.livello === 'rapporto' ? c.codRapporto : ''}` : `manuale|${manualIds[i]!}`;
  });

  // The locks of every customer and rule of the call, in one order (two calls never wait on each other crosswise).
  const lockKeys = [...new Set(dedups)].sort().map((d) => `monitoring-alert|${codAzienda}|${d}`);
  await trx.raw('select count(pg_advisory_xact_lock(hashtextextended(l.k, 0))) from jsonb_array_elements_text(?::jsonb) with ordinality as l(k, n)', [JSON.stringify(lockKeys)]);

  const hitKeys = [...new Set(cands.map((c) => c.chiaveRiscontro))];
  const seenRows = await trx('monitoring_alert_riscontri as h').join('monitoring_alert as a', 'a.id', 'h.alert_id')
    .where('h.cod_azienda', codAzienda).whereRaw('h.chiave = any(array(select jsonb_array_elements_text(?::jsonb)))', [JSON.stringify(hitKeys)]).select('h.chiave', 'a.id', 'a.cod_alert') as { chiave: string; id: string; cod_alert: string }[];
  const seen = new Map<string, { id: string; cod_alert?: string; alert?: AlertState }>(seenRows.map((r) => [r.chiave, { id: r.id, cod_alert: r.cod_alert }]));

  // The alerts any hit of a customer and rule could add to: the widest window of that key's hits, locked.
  const bounds = new Map<string, { lo: string; hi: string }>();
  cands.forEach((c, i) => {
    const v = vs[i];
    if (!v || seen.has(c.chiaveRiscontro)) return;
    const lo = addDays(c.finestraDa, -v.finestra_dedup_giorni);
    const b = bounds.get(dedups[i]!);
    if (!b) bounds.set(dedups[i]!, { lo, hi: c.finestraA });
    else { if (lo < b.lo) b.lo = lo; if (c.finestraA > b.hi) b.hi = c.finestraA; }
  });
  const open = new Map<string, AlertState[]>();
  if (bounds.size) {
    const { rows } = await trx.raw<{ rows: { id: string; cod_alert: string; chiave_dedup: string; riscontri: number; ultimo_riscontro: Date; stato: string; finestra_da: string; finestra_a: string; punteggio: number }[] }>(`
      select a.id, a.cod_alert, a.chiave_dedup, a.riscontri, a.ultimo_riscontro, a.stato, a.finestra_da::text as finestra_da, a.finestra_a::text as finestra_a, a.punteggio
        from monitoring_alert a join jsonb_to_recordset(?::jsonb) as k(chiave text, lo date, hi date) on a.chiave_dedup = k.chiave and a.finestra_a >= k.lo and a.finestra_da <= k.hi
       where a.cod_azienda = ? and a.deleted_at is null
       order by a.chiave_dedup, a.numero
         for update of a`, [JSON.stringify([...bounds].map(([chiave, b]) => ({ chiave, ...b }))), codAzienda]);
    for (const r of rows) {
      const list = open.get(r.chiave_dedup) ?? [];
      list.push({ id: r.id, cod_alert: r.cod_alert, nuovo: false, riscontri: r.riscontri, ultimo: new Date(r.ultimo_riscontro), finestra_da: r.finestra_da, finestra_a: r.finestra_a, punteggio: r.punteggio, stato: r.stato, aggiunti: 0 });
      open.set(r.chiave_dedup, list);
    }
  }

  // Each hit in the call's order, against the alerts as the hits before it left them.
  const steps: Step[] = cands.map((c, i) => {
    const v = vs[i];
    const was = seen.get(c.chiaveRiscontro);
    if (was) return { c, seen: was };
    const candidatesOfKey = v ? open.get(dedups[i]!) ?? [] : [];
    const from = addDays(c.finestraDa, -(v?.finestra_dedup_giorni ?? 0));
    let target: AlertState | undefined;
    for (const a of candidatesOfKey) if (a.finestra_a >= from && a.finestra_da <= c.finestraA && (!target || a.finestra_a >= target.finestra_a)) target = a;
    const evidenza = JSON.stringify(c.evidenza);
    let step: Step;
    if (target) {
      if (c.dataRilevazione.getTime() >= target.ultimo.getTime()) target.evidenza = evidenza;
      if (c.dataRilevazione.getTime() > target.ultimo.getTime()) target.ultimo = c.dataRilevazione;
      if (c.finestraDa < target.finestra_da) target.finestra_da = c.finestraDa;
      if (c.finestraA > target.finestra_a) target.finestra_a = c.finestraA;
      target.punteggio = Math.max(target.punteggio, c.punteggio);
      target.riscontri++;
      target.aggiunti++;
      step = { c, v, alert: target, esito: 'aggiornato', riscontri: target.riscontri, stato: target.stato };
    } else {
      const id = manualIds[i] ?? randomUUID();
      const alert: AlertState = {
        id, nuovo: true, riscontri: 1, ultimo: c.dataRilevazione, finestra_da: c.finestraDa, finestra_a: c.finestraA, punteggio: c.punteggio, stato: 'new', evidenza, aggiunti: 0,
        row: {
          id, cod_azienda: codAzienda, cod_anagrafe: c.codAnagrafe, cod_rapporto: c.codRapporto ?? null,
          cod_regola: c.regola?.codRegola ?? null, versione: v?.versione ?? null, versione_id: v?.id ?? null,
          tipologia: (v?.tipologia ?? c.tipologia) as Tipologia, origine: c.origine as Origine, stato: 'new',
          data_rilevazione: c.dataRilevazione, chiave_dedup: dedups[i], cod_decisione: c.codDecisione ?? null, raised_by: actor,
        },
      };
      if (v) { const list = open.get(dedups[i]!) ?? []; list.push(alert); open.set(dedups[i]!, list); }
      step = { c, v, alert, esito: 'nuovo', riscontri: 1, stato: 'new' };
    }
    seen.set(c.chiaveRiscontro, { id: step.alert.id, alert: step.alert });
    return step;
  });

  const made = steps.flatMap((s) => ('alert' in s && s.esito === 'nuovo' ? [s.alert] : []));
  if (made.length) {
    for (let i = 0; i < made.length; i += ALERTS_PER_INSERT) {
      const part = made.slice(i, i + ALERTS_PER_INSERT);
      // In the order of their first hits, so their codes are in that order too.
      const rows = await trx('monitoring_alert').insert(part.map((a) => ({
        ...a.row, punteggio: a.punteggio, finestra_da: a.finestra_da, finestra_a: a.finestra_a, ultimo_riscontro: a.ultimo, riscontri: a.riscontri, evidenza: a.evidenza,
      }))).returning(['id', 'cod_alert']) as { id: string; cod_alert: string }[];
      const codes = new Map(rows.map((r) => [r.id, r.cod_alert]));
      for (const a of part) a.cod_alert = codes.get(a.id);
    }
  }
  const updated = [...new Set(steps.flatMap((s) => ('alert' in s && s.esito === 'aggiornato' && !s.alert.nuovo ? [s.alert] : [])))];
  if (updated.length) {
    await trx.raw(`
      update monitoring_alert a set riscontri = a.riscontri + v.aggiunti, ultimo_riscontro = greatest(a.ultimo_riscontro, v.ultimo),
             finestra_da = least(a.finestra_da, v.da), finestra_a = greatest(a.finestra_a, v.a), punteggio = greatest(a.punteggio, v.punteggio),
             evidenza = coalesce(v.evidenza, a.evidenza), updated_at = ?
        from jsonb_to_recordset(?::jsonb) as v(id uuid, aggiunti int, ultimo timestamptz, da date, a date, punteggio int, evidenza jsonb)
       where a.id = v.id and a.cod_azienda = ?`, [new Date(), JSON.stringify(updated.map((a) => ({
      id: a.id, aggiunti: a.aggiunti, ultimo: a.ultimo.toISOString(), da: a.finestra_da, a: a.finestra_a, punteggio: a.punteggio, evidenza: a.evidenza === undefined ? null : JSON.parse(a.evidenza) as unknown,
    }))), codAzienda]);
  }

  const raisedSteps = steps.filter((s): s is Extract<Step, { alert: AlertState }> => 'alert' in s);
  await insertRows(trx, 'monitoring_alert_riscontri', raisedSteps.map(({ c, v, alert }) => ({
    cod_azienda: codAzienda, chiave: c.chiaveRiscontro, alert_id: alert.id, origine: c.origine, versione: v?.versione ?? null, punteggio: c.punteggio, data_rilevazione: c.dataRilevazione,
    finestra_da: c.finestraDa, finestra_a: c.finestraA, cod_decisione: c.codDecisione ?? null, evidenza: JSON.stringify(c.evidenza),
  })), HITS_PER_INSERT);
  // One event per hit, in the call's order (their ids, so their place in the chain, follow it).
  await appendAudits(trx, raisedSteps.map(({ c, v, alert, esito, riscontri, stato }): AuditInput => (esito === 'aggiornato'
    ? {
        codAzienda, actor, action: 'monitoring.alert.hit', entityType: 'monitoring_alert', entityId: alert.id,
        data: { chiave: c.chiaveRiscontro, origine: c.origine, cod_regola: c.regola?.codRegola, versione: v?.versione, punteggio: c.punteggio, finestra_da: c.finestraDa, finestra_a: c.finestraA, riscontri, stato },
      }
    : {
        codAzienda, actor, action: v ? 'monitoring.alert.raise' : 'monitoring.alert.create', entityType: 'monitoring_alert', entityId: alert.id,
        data: {
          cod_alert: alert.cod_alert, to: 'new', origine: c.origine, cod_anagrafe: c.codAnagrafe, cod_regola: c.regola?.codRegola, versione: v?.versione,
          tipologia: v?.tipologia ?? c.tipologia, punteggio: c.punteggio, finestra_da: c.finestraDa, finestra_a: c.finestraA, chiave: c.chiaveRiscontro,
        },
      })));
  const links = new Map<string, Record<string, unknown>>();
  for (const { c, alert } of raisedSteps) {
    for (const m of c.movimenti) links.set(`${alert.id}|${m.id}`, { cod_azienda: codAzienda, alert_id: alert.id, movimento_id: m.id, data_operazione: m.data_operazione });
  }
  const linkRows = [...links.values()];
  for (let i = 0; i < linkRows.length; i += LINKS_PER_INSERT) {
    await trx('monitoring_alert_movimenti').insert(linkRows.slice(i, i + LINKS_PER_INSERT)).onConflict(['alert_id', 'movimento_id']).ignore();
  }

  return steps.map((s, indice) => {
    if ('alert' in s) return { indice, id: s.alert.id, cod_alert: s.alert.cod_alert!, esito: s.esito };
    return { indice, id: s.seen.id, cod_alert: s.seen.cod_alert ?? s.seen.alert!.cod_alert!, esito: 'gia_registrato' as const };
  });
}

// Rows per statement, under PostgreSQL's 65,535 bind parameters (about 20, 11 and 4 columns).
const ALERTS_PER_INSERT = 2_000;
const HITS_PER_INSERT = 5_000;
const LINKS_PER_INSERT = 10_000;

async function insertRows(trx: Knex.Transaction, table: string, rows: readonly Record<string, unknown>[], perStatement: number) {
  for (let i = 0; i < rows.length; i += perStatement) await trx(table).insert(rows.slice(i, i + perStatement));
}
