import type { Knex } from 'knex';
import { auditActionLabel } from '../domains/audit';
import { fullNamesByUsername } from './users';

/** One line of a timeline, as the `timeline` macro (views/macros/process.njk) draws it. */
export interface TimelineItem {
  at: Date | string;
  /** Who did it: a person's "Nome Cognome", or "Sistema", "Cliente", "Firmatario". */
  actor: string;
  title: string;
  text: string;
  tone: string;
}

/** An audit row as the areas read it (the sequence number, if selected, is not shown: it belongs to /audit/eventi). */
export interface AuditLike {
  action: string;
  actor: string;
  occurred_at: Date | string;
  entity_type?: string;
  data?: Record<string, unknown> | null;
}

export interface TimelineOptions<R extends AuditLike = AuditLike> {
  /** Labels of the states the rows' data.from/data.to name: the "Nuovo stato" line (per row when rows of several processes mix). */
  states?: Record<string, string> | ((row: R) => Record<string, string> | undefined);
  /** Labels of the outcome (data.esito or data.outcome); without one the outcome is not shown raw. */
  outcomes?: Record<string, string>;
  /** A better title than the dictionary's for one row (an onboarding edit by its kind). */
  title?: (row: R) => string | undefined;
  /** Lines of detail that matter for this area, before the reason. */
  detail?: (row: R) => string[];
  tone?: (row: R) => string | undefined;
}

/** Actors that are not people: processes of the platform, the applicant, the signer. */
const NON_PERSONS: [RegExp, string][] = [
  [/^(system|worker|sistema)(:.*)?$/i, 'Sistema'],
  [/^cliente(:.*)?$/i, 'Cliente'],
  [/^firmatario(:.*)?$/i, 'Firmatario'],
];

/** Who an actor is for a reader: a person's name when the tenant knows it, else the identifier as written. */
export function actorLabel(actor: string | null | undefined, names: Record<string, string>): string {
  if (!actor) return 'Sistema';
  for (const [re, label] of NON_PERSONS) if (re.test(actor)) return label;
  return names[actor] ?? actor;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The reason and outcome of an event, in Italian, whatever name its area gave them. */
export function reasonLines(data: Record<string, unknown> | null | undefined, opts: Pick<TimelineOptions, 'outcomes'> = {}): string[] {
  const d = data ?? {};
  const lines: string[] = [];
  const outcome = text(d.esito) || text(d.outcome);
  if (outcome && opts.outcomes?.[outcome]) lines.push(`Esito: ${opts.outcomes[outcome]}`);
  const reason = text(d.reason) || text(d.motivazione);
  if (reason) lines.push(`Motivazione: ${reason}`);
  if (text(d.message)) lines.push(`Messaggio: ${text(d.message)}`);
  if (text(d.note)) lines.push(`Nota: ${text(d.note)}`);
  return lines;
}

const DANGER = /(reject|revoke|expire|erase|purge|fail|lock|cancel|elimina|overdue|due|deactivated)/;
const GOOD = /(approv|verify|materialise|sign$|complete|risolvi$|created?$|activated)/;
const defaultTone = (action: string) => (DANGER.test(action) ? 'red' : GOOD.test(action) ? 'green' : 'blue');

/** Timeline items of audit rows, with the names already known (auditTimeline reads them). */
export function auditItems<R extends AuditLike>(rows: R[], names: Record<string, string>, opts: TimelineOptions<R> = {}): TimelineItem[] {
  return rows.map((r) => {
    const d = r.data ?? {};
    const lines = [...(opts.detail?.(r) ?? [])];
    const to = text(d.to);
    const states = typeof opts.states === 'function' ? opts.states(r) : opts.states;
    if (to && states?.[to] && d.from !== d.to) lines.push(`Nuovo stato: ${states[to]}`);
    lines.push(...reasonLines(d, opts));
    return {
      at: r.occurred_at,
      actor: actorLabel(r.actor, names),
      title: opts.title?.(r) ?? auditActionLabel(r.action),
      text: lines.join('\n'),
      tone: opts.tone?.(r) ?? defaultTone(r.action),
    };
  });
}

/** Items of several sources (audit rows, process events) in the order they happened. */
export function byTime(...lists: TimelineItem[][]): TimelineItem[] {
  return lists.flat().sort((x, y) => new Date(x.at).getTime() - new Date(y.at).getTime());
}

/** The timeline of a record's audit rows: what happened in Italian, who did it by name, and why. */
export async function auditTimeline<R extends AuditLike>(trx: Knex.Transaction, rows: R[], opts: TimelineOptions<R> = {}, extraActors: string[] = []): Promise<TimelineItem[]> {
  const names = await fullNamesByUsername(trx, [...rows.map((r) => r.actor), ...extraActors]);
  return auditItems(rows, names, opts);
}
