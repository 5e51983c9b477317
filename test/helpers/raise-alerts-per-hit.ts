import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { ValidationError } from '../../src/http/errors';
import { appendAudit } from '../../src/domains/audit';
import { alertCandidateSchema, type AlertCandidate, type RaisedAlert } from '../../src/domains/monitoring';
import type { Origine } from '../../workflows/monitoring-alert/monitoring-alert.machine';
import type { Tipologia } from '../../src/domains/monitoring/monitoring.typologies';

/**
 * The reference the set-based raiseAlerts is checked against (test/api/monitoring-raise-batch.test.ts):
 * raiseAlerts as it was before it raised a batch set-based, one hit after the other, about seven
 * statements a hit (the advisory lock, the hit key seen?, the open alert for update, insert or
 * update, the hit's row, its audit event, its movements). Kept verbatim; not used by the product.
 */

interface RuleVersion { id: string; versione: number; tipologia: string; livello: 'cliente' | 'rapporto'; finestra_dedup_giorni: number; esito: 'alert' | 'osserva' }

async function ruleVersion(trx: Knex.Transaction, codAzienda: string, codRegola: string, versione: number, cache: Map<string, RuleVersion>) {
  const key = `${codRegola}:${versione}`;
  if (!cache.has(key)) {
    const v = await trx('monitoring_regole_versioni as v').join('monitoring_regole as r', 'r.id', 'v.regola_id')
      .where({ 'r.cod_azienda': codAzienda, 'r.cod_regola': codRegola, 'v.versione': versione })
      .first('v.id', 'v.versione', 'r.tipologia', 'v.livello', 'v.finestra_dedup_giorni', 'v.esito') as RuleVersion | undefined;
    if (!v) return undefined;
    cache.set(key, v);
  }
  return cache.get(key);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

interface RaiseOptions {
  /** Who raises them, as the audit trail names it: a user's username for an alert made by hand, a process otherwise. */
  actor?: string;
  /** The id of a new alert made by hand (the request's record id, so a retried request makes the same alert): one candidate then. */
  alertId?: string;
}

/**
 * Raises the candidates' alerts in the caller's tenant transaction, one after the other (each
 * sees the ones before it). A candidate that is not well formed, or names a rule version the
 * tenant does not have, is a ValidationError (`candidati.<i>.<field>`) and nothing is written by
 * this call's later candidates (the caller's transaction decides about the earlier ones).
 */
export async function raiseAlertsPerHit(trx: Knex.Transaction, codAzienda: string, candidates: readonly AlertCandidate[], opts: RaiseOptions = {}): Promise<RaisedAlert[]> {
  const actor = opts.actor ?? 'sistema:monitoraggio';
  const cache = new Map<string, RuleVersion>();
  const out: RaisedAlert[] = [];
  for (const [indice, raw] of candidates.entries()) {
    const parsed = alertCandidateSchema.safeParse(raw);
    if (!parsed.success) throw new ValidationError(parsed.error.issues.map((i) => ({ path: ['candidati', indice, ...i.path].join('.'), message: i.message })));
    const c = parsed.data;
    const v = c.regola ? await ruleVersion(trx, codAzienda, c.regola.codRegola, c.regola.versione, cache) : undefined;
    if (c.regola && !v) throw new ValidationError([{ path: `candidati.${indice}.regola`, message: `rule ${c.regola.codRegola} v${c.regola.versione} not found` }]);
    // A version that only observes records its hits in the decision, never as alerts.
    if (v?.esito === 'osserva') throw new ValidationError([{ path: `candidati.${indice}.regola`, message: `rule ${c.regola!.codRegola} v${v.versione} only observes: it raises no alert` }]);
    if (v?.livello === 'rapporto' && !c.codRapporto) throw new ValidationError([{ path: `candidati.${indice}.codRapporto`, message: 'a rule evaluated per relationship names the relationship' }]);
    out.push({ indice, ...await raiseOne(trx, codAzienda, c, v, actor, opts.alertId) });
  }
  return out;
}

type Candidate = z.output<typeof alertCandidateSchema>;

async function raiseOne(trx: Knex.Transaction, codAzienda: string, c: Candidate, v: RuleVersion | undefined, actor: string, manualId?: string) {
  const manual = !v;
  const alertId = manual ? (manualId ?? randomUUID()) : randomUUID();
  // A hand-made alert is a deliberate act: never merged into another.
  const dedup = v ? `${c.regola!.codRegola}|${c.codAnagrafe}|${v.livello === 'rapporto' ? c.codRapporto : ''}` : `manuale|${alertId}`;
  const hitKey = c.chiaveRiscontro;
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`monitoring-alert|${codAzienda}|${dedup}`]);

  const seen = await trx('monitoring_alert_riscontri as h').join('monitoring_alert as a', 'a.id', 'h.alert_id')
    .where({ 'h.cod_azienda': codAzienda, 'h.chiave': hitKey }).first('a.id', 'a.cod_alert') as { id: string; cod_alert: string } | undefined;
  if (seen) return { id: seen.id, cod_alert: seen.cod_alert, esito: 'gia_registrato' as const };

  const dedupDays = v?.finestra_dedup_giorni ?? 0;
  const existing = manual ? undefined : await trx('monitoring_alert')
    .where({ cod_azienda: codAzienda, chiave_dedup: dedup }).whereNull('deleted_at')
    .andWhere('finestra_a', '>=', addDays(c.finestraDa, -dedupDays)).andWhere('finestra_da', '<=', c.finestraA)
    .orderBy('finestra_a', 'desc').forUpdate().first('id', 'cod_alert', 'riscontri', 'ultimo_riscontro', 'stato') as
    { id: string; cod_alert: string; riscontri: number; ultimo_riscontro: Date; stato: string } | undefined;

  const hit = {
    cod_azienda: codAzienda, chiave: hitKey, origine: c.origine, versione: v?.versione ?? null, punteggio: c.punteggio, data_rilevazione: c.dataRilevazione,
    finestra_da: c.finestraDa, finestra_a: c.finestraA, cod_decisione: c.codDecisione ?? null, evidenza: JSON.stringify(c.evidenza),
  };
  let id: string;
  let codAlert: string;
  if (existing) {
    const later = c.dataRilevazione.getTime() >= new Date(existing.ultimo_riscontro).getTime();
    await trx('monitoring_alert').where({ id: existing.id }).update({
      riscontri: trx.raw('riscontri + 1'),
      ultimo_riscontro: trx.raw('greatest(ultimo_riscontro, ?)', [c.dataRilevazione]),
      finestra_da: trx.raw('least(finestra_da, ?::date)', [c.finestraDa]),
      finestra_a: trx.raw('greatest(finestra_a, ?::date)', [c.finestraA]),
      punteggio: trx.raw('greatest(punteggio, ?)', [c.punteggio]),
      ...(later ? { evidenza: JSON.stringify(c.evidenza) } : {}),
      updated_at: new Date(),
    });
    ({ id, cod_alert: codAlert } = existing);
    await trx('monitoring_alert_riscontri').insert({ ...hit, alert_id: id });
    await appendAudit(trx, {
      codAzienda, actor, action: 'monitoring.alert.hit', entityType: 'monitoring_alert', entityId: id,
      data: { chiave: hitKey, origine: c.origine, cod_regola: c.regola?.codRegola, versione: v?.versione, punteggio: c.punteggio, finestra_da: c.finestraDa, finestra_a: c.finestraA, riscontri: existing.riscontri + 1, stato: existing.stato },
    });
  } else {
    const [row] = await trx('monitoring_alert').insert({
      id: alertId, cod_azienda: codAzienda, cod_anagrafe: c.codAnagrafe, cod_rapporto: c.codRapporto ?? null,
      cod_regola: c.regola?.codRegola ?? null, versione: v?.versione ?? null, versione_id: v?.id ?? null,
      tipologia: (v?.tipologia ?? c.tipologia) as Tipologia, origine: c.origine as Origine, stato: 'new', punteggio: c.punteggio,
      data_rilevazione: c.dataRilevazione, finestra_da: c.finestraDa, finestra_a: c.finestraA, ultimo_riscontro: c.dataRilevazione, riscontri: 1,
      chiave_dedup: dedup, cod_decisione: c.codDecisione ?? null, evidenza: JSON.stringify(c.evidenza), raised_by: actor,
    }).returning(['id', 'cod_alert']) as { id: string; cod_alert: string }[];
    ({ id, cod_alert: codAlert } = row!);
    await trx('monitoring_alert_riscontri').insert({ ...hit, alert_id: id });
    await appendAudit(trx, {
      codAzienda, actor, action: manual ? 'monitoring.alert.create' : 'monitoring.alert.raise', entityType: 'monitoring_alert', entityId: id,
      data: {
        cod_alert: codAlert, to: 'new', origine: c.origine, cod_anagrafe: c.codAnagrafe, cod_regola: c.regola?.codRegola, versione: v?.versione,
        tipologia: v?.tipologia ?? c.tipologia, punteggio: c.punteggio, finestra_da: c.finestraDa, finestra_a: c.finestraA, chiave: hitKey,
      },
    });
  }
  if (c.movimenti.length) {
    await trx('monitoring_alert_movimenti')
      .insert(c.movimenti.map((m) => ({ cod_azienda: codAzienda, alert_id: id, movimento_id: m.id, data_operazione: m.data_operazione })))
      .onConflict(['alert_id', 'movimento_id']).ignore();
  }
  return { id, cod_alert: codAlert, esito: existing ? 'aggiornato' as const : 'nuovo' as const };
}
