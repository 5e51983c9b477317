import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Giorno } from '../engine';
import { dayOfDecisionCode, decodeRules, type RegolaCompatta, type RegolaDecisa } from './decisions.codec';

/**
 * monitoring_decisioni: writes (in the caller's tenant transaction, idempotent per event and per
 * customer and day) and reads by code or by event, each reading one monthly partition.
 */

export type OrigineDecisione = 'tempo_reale' | 'giornaliero';
export type EsitoDecisione = 'nessuna_anomalia' | 'alert' | 'blocco';

export interface DecisionAlert { id: string; cod_alert: string; esito: 'nuovo' | 'aggiornato' | 'gia_registrato' }

export interface NewDecision {
  cod_decisione: string;
  giorno: Giorno;
  tipo: 'evento' | 'giornaliera';
  fonte_evento: 'movimento' | 'kyt' | null;
  evento_id: string | null;
  cod_anagrafe: string;
  esito: EsitoDecisione;
  punteggio: number;
  regole: RegolaCompatta[];
  versioni_regole: Record<string, number>;
  versioni_liste: Record<string, string>;
  alert: DecisionAlert[];
  origine: OrigineDecisione;
  motore: string;
  durata_ms: number;
}

export interface DecisionRecord extends Omit<NewDecision, 'regole'> {
  id: string;
  cod_azienda: string;
  regole: RegolaDecisa[];
  created_at: Date;
}

/** The select-list expression that makes sure of the partitions of these days (its one binding: the days), for withTenantFirst. */
export const DECISION_PARTITIONS_SQL = 'monitoring_decisioni_ensure_partitions(?::date[]) as partizioni';

/** Transactions whose first statement already made sure of the partitions of these days. */
const ensuredIn = new WeakMap<Knex.Transaction, ReadonlySet<string>>();
export function notePartitionsEnsured(trx: Knex.Transaction, giorni: readonly Giorno[]): void {
  ensuredIn.set(trx, new Set(giorni));
}

/**
 * Inserts the decisions; one already made for the same event (or the same customer and day) is
 * kept and this one dropped. A KYT event's row names its new decision in the same statement (the
 * event's page, and the answer to the same event sent again). Answers the codes that hold each
 * event and day: the new one, or the one already there (read only for those not inserted).
 */
export async function insertDecisions(trx: Knex.Transaction, codAzienda: string, rows: readonly NewDecision[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  if (!rows.length) return held;
  const giorni = [...new Set(rows.map((r) => r.giorno))];
  const ensured = ensuredIn.get(trx);
  if (!ensured || giorni.some((g) => !ensured.has(g))) await trx.raw(`select ${DECISION_PARTITIONS_SQL}`, [giorni]);
  const values = rows.map((r) => ({
    id: randomUUID(), cod_azienda: codAzienda, cod_decisione: r.cod_decisione, giorno: r.giorno, tipo: r.tipo, fonte_evento: r.fonte_evento,
    evento_id: r.evento_id, cod_anagrafe: r.cod_anagrafe, esito: r.esito, punteggio: r.punteggio, regole: JSON.stringify(r.regole),
    versioni_regole: JSON.stringify(r.versioni_regole), versioni_liste: JSON.stringify(r.versioni_liste), alert: JSON.stringify(r.alert),
    origine: r.origine, motore: r.motore, durata_ms: r.durata_ms,
  }));
  const events = values.filter((v) => v.tipo === 'evento');
  const days = values.filter((v) => v.tipo === 'giornaliera');
  for (const [part, target] of [[events, "(cod_azienda, evento_id, giorno) where tipo = 'evento'"], [days, "(cod_azienda, cod_anagrafe, giorno) where tipo = 'giornaliera'"]] as const) {
    for (let i = 0; i < part.length; i += 500) {
      const { rows: inserted } = await trx.raw<{ rows: { tipo: string; evento_id: string | null; cod_anagrafe: string; giorno: string; cod_decisione: string }[] }>(`
        with ins as (? on conflict ${target} do nothing returning tipo, fonte_evento, evento_id, cod_anagrafe, giorno, cod_decisione),
        kyt as (update kyt_eventi e set cod_decisione = ins.cod_decisione from ins
                 where ins.fonte_evento = 'kyt' and e.cod_azienda = ? and e.id = ins.evento_id and e.cod_decisione is null)
        select tipo, evento_id, cod_anagrafe, giorno::text as giorno, cod_decisione from ins`,
      [trx('monitoring_decisioni').insert(part.slice(i, i + 500)), codAzienda]);
      for (const f of inserted) held.set(decisionKey({ tipo: f.tipo as NewDecision['tipo'], evento_id: f.evento_id, cod_anagrafe: f.cod_anagrafe, giorno: f.giorno }), f.cod_decisione);
    }
  }
  // What holds the others (the decision made before).
  const eventIds = rows.filter((r) => r.tipo === 'evento' && !held.has(decisionKey(r))).map((r) => r.evento_id!);
  if (eventIds.length) {
    const found = await trx('monitoring_decisioni').where('cod_azienda', codAzienda).whereIn('giorno', giorni).whereIn('evento_id', eventIds)
      .andWhere('tipo', 'evento').select('evento_id', 'cod_decisione') as { evento_id: string; cod_decisione: string }[];
    for (const f of found) held.set(`e:${f.evento_id}`, f.cod_decisione);
  }
  const dayRows = rows.filter((r) => r.tipo === 'giornaliera' && !held.has(decisionKey(r)));
  if (dayRows.length) {
    const found = await trx('monitoring_decisioni').where('cod_azienda', codAzienda).whereIn('giorno', giorni)
      .whereIn('cod_anagrafe', dayRows.map((r) => r.cod_anagrafe)).andWhere('tipo', 'giornaliera')
      .select('cod_anagrafe', trx.raw('giorno::text as giorno'), 'cod_decisione') as { cod_anagrafe: string; giorno: string; cod_decisione: string }[];
    for (const f of found) {
      const key = decisionKey({ tipo: 'giornaliera', evento_id: null, cod_anagrafe: f.cod_anagrafe, giorno: f.giorno });
      if (!held.has(key)) held.set(key, f.cod_decisione);
    }
  }
  return held;
}

export const decisionKey = (r: Pick<NewDecision, 'tipo' | 'evento_id' | 'cod_anagrafe' | 'giorno'>) =>
  (r.tipo === 'evento' ? `e:${r.evento_id}` : `g:${r.cod_anagrafe}:${r.giorno}`);

const COLUMNS = (trx: Knex.Transaction) => [
  'id', 'cod_azienda', 'cod_decisione', trx.raw('giorno::text as giorno'), 'tipo', 'fonte_evento', 'evento_id', 'cod_anagrafe', 'esito', 'punteggio',
  'regole', 'versioni_regole', 'versioni_liste', 'alert', 'origine', 'motore', 'durata_ms', 'created_at',
];

const decode = (row: Record<string, unknown> | undefined): DecisionRecord | undefined =>
  row ? { ...(row as unknown as DecisionRecord), regole: decodeRules(row.regole as RegolaCompatta[]) } : undefined;

/** A decision by its code (its day names the one partition to read); undefined when not the tenant's or not a code. */
export async function findDecision(trx: Knex.Transaction, codAzienda: string, code: string): Promise<DecisionRecord | undefined> {
  const giorno = dayOfDecisionCode(code);
  if (!giorno) return undefined;
  return decode(await trx('monitoring_decisioni').where({ cod_azienda: codAzienda, cod_decisione: code, giorno }).first(COLUMNS(trx)));
}

/** Decisions by their codes, in one statement (their days name the partitions to read); codes not the tenant's, or not codes, are left out. */
export async function findDecisions(trx: Knex.Transaction, codAzienda: string, codes: readonly string[]): Promise<DecisionRecord[]> {
  const valid = [...new Set(codes)].filter((c) => dayOfDecisionCode(c));
  if (!valid.length) return [];
  const rows = await trx('monitoring_decisioni').where('cod_azienda', codAzienda)
    .whereIn('giorno', [...new Set(valid.map((c) => dayOfDecisionCode(c)!))]).whereIn('cod_decisione', valid).select(COLUMNS(trx)) as Record<string, unknown>[];
  return rows.map((r) => decode(r)!);
}

/** The decision on an event (a movement on its day, a KYT event on its day). */
export async function decisionOfEvent(trx: Knex.Transaction, codAzienda: string, eventoId: string, giorno: Giorno): Promise<DecisionRecord | undefined> {
  return decode(await trx('monitoring_decisioni').where({ cod_azienda: codAzienda, evento_id: eventoId, giorno, tipo: 'evento' }).first(COLUMNS(trx)));
}

/** The events of these days that already have a decision (the daily batch leaves them). */
export async function decidedEvents(trx: Knex.Transaction, codAzienda: string, giorno: Giorno, codAnagrafe: readonly string[]): Promise<Set<string>> {
  if (!codAnagrafe.length) return new Set();
  const rows = await trx('monitoring_decisioni').where({ cod_azienda: codAzienda, giorno, tipo: 'evento' }).whereIn('cod_anagrafe', codAnagrafe)
    .pluck('evento_id') as string[];
  return new Set(rows);
}
