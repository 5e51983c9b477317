import type { Knex } from 'knex';
import { getSetting } from '../../admin';
import { versionHash } from '../evaluation/rule-set';
import { ruleVersionData } from '../runs/runs.backtest';
import type { RunRow } from '../runs/runs.repo';
import { RUN_COLUMNS } from '../runs/runs.repo';

/**
 * A draft's release gates (docs/monitoring.md, "Rules, versions and release gates"), computed from
 * the records each time they are asked (GET /api/engine/release-gates, the rule's release page, and
 * the approval itself, in its transaction):
 *
 * - backtest: a completed backtest of this exact draft (its content hash) against the version in
 *   force now;
 * - volume: that backtest's alerts within the tenant's tolerance of the version in force's
 *   (`monitoring.tolleranza_volume`, ±%), or, for a rule with no version in force, within the cap
 *   per 10,000 customers a year (`monitoring.alert_max_nuova_regola`), scaled to the backtest's
 *   customers and days;
 * - approval: a second person's (the release workflow's four-eyes; shown here as its state).
 */

export interface Gate { ok: boolean; motivo: string }
export interface ReleaseGates {
  versione_id: string; regola_id: string; cod_regola: string; nome: string; versione: number; hash: string;
  backtest: Gate & { esecuzione_id: string | null; stato: string | null; dal: string | null; al: string | null };
  volume: Gate & { alert_bozza: number | null; alert_attiva: number | null; minimo: number | null; massimo: number | null; regola_nuova: boolean; tolleranza_percento: number };
  approvazione: Gate & { stato: 'non_richiesta' | 'in_attesa' | 'attivata' | 'respinta'; richiesto_da: string | null; deciso_da: string | null };
  /** Backtest and volume pass: a second person may approve. */
  pronta: boolean;
}

const nf = (n: number) => new Intl.NumberFormat('it-IT').format(n);

export async function computeGates(trx: Knex.Transaction, codAzienda: string, versionId: string): Promise<ReleaseGates | undefined> {
  const draft = await ruleVersionData(trx, codAzienda, versionId);
  if (!draft) return undefined;
  const hash = versionHash(draft);
  const active = await trx('monitoring_regole_versioni').where({ cod_azienda: codAzienda, regola_id: draft.regola_id, stato: 'attiva' }).first('id') as { id: string } | undefined;
  const runs = await trx('monitoring_esecuzioni').where({ cod_azienda: codAzienda, tipo: 'backtest', versione_id: versionId })
    .orderBy('created_at', 'desc').limit(20).select(RUN_COLUMNS(trx)) as RunRow[];
  const matching = runs.filter((r) => r.versione_hash === hash && (r.attiva_id ?? null) === (active?.id ?? null));
  const done = matching.find((r) => r.stato === 'completed');
  const running = matching.find((r) => r.stato === 'running');
  const backtest = done
    ? { ok: true, motivo: 'Backtest completato su questa bozza', esecuzione_id: done.id, stato: done.stato, dal: done.dal, al: done.al }
    : {
      ok: false, esecuzione_id: running?.id ?? runs[0]?.id ?? null, stato: running?.stato ?? runs[0]?.stato ?? null, dal: null, al: null,
      motivo: running ? 'Backtest in corso'
        : runs.length ? 'Nessun backtest completato sulla bozza così com\'è ora (modificata dopo il backtest, o con un\'altra versione in vigore)'
          : 'Nessun backtest della bozza',
    };

  const tolleranza = await getSetting(trx, 'monitoring.tolleranza_volume', codAzienda);
  const cap = await getSetting(trx, 'monitoring.alert_max_nuova_regola', codAzienda);
  let volume: ReleaseGates['volume'] = {
    ok: false, motivo: 'Serve un backtest completato', alert_bozza: null, alert_attiva: null, minimo: null, massimo: null, regola_nuova: !active, tolleranza_percento: tolleranza,
  };
  if (done) {
    const s = done.riepilogo as { alert_bozza?: number; alert_attiva?: number | null; clienti?: number; giorni?: number };
    const bozza = s.alert_bozza ?? 0;
    const attiva = s.alert_attiva ?? null;
    if (active && attiva !== null && attiva > 0) {
      const minimo = Math.floor(attiva * (1 - tolleranza / 100));
      const massimo = Math.ceil(attiva * (1 + tolleranza / 100));
      const ok = bozza >= Math.max(0, minimo) && bozza <= massimo;
      volume = { ...volume, ok, alert_bozza: bozza, alert_attiva: attiva, minimo: Math.max(0, minimo), massimo,
        motivo: ok ? `${nf(bozza)} alert contro ${nf(attiva)} della versione in vigore: entro il ±${tolleranza}%`
          : `${nf(bozza)} alert contro ${nf(attiva)} della versione in vigore: fuori dal ±${tolleranza}% (da ${nf(Math.max(0, minimo))} a ${nf(massimo)})` };
    } else {
      const massimo = Math.floor(cap * ((s.clienti ?? 0) / 10_000) * ((s.giorni ?? 365) / 365));
      const ok = bozza <= massimo;
      volume = { ...volume, ok, alert_bozza: bozza, alert_attiva: attiva, minimo: 0, massimo,
        motivo: ok ? `${nf(bozza)} alert: entro il massimo di ${nf(massimo)} per ${nf(s.clienti ?? 0)} clienti nel periodo (${nf(cap)} all'anno ogni 10.000 clienti)`
          : `${nf(bozza)} alert: oltre il massimo di ${nf(massimo)} per ${nf(s.clienti ?? 0)} clienti nel periodo (${nf(cap)} all'anno ogni 10.000 clienti)` };
    }
  }

  const release = await trx('monitoring_rilasci').where({ cod_azienda: codAzienda, id: versionId })
    .first('stato', 'richiesto_da_username', 'deciso_da') as { stato: 'in_attesa' | 'attivata' | 'respinta'; richiesto_da_username: string; deciso_da: string | null } | undefined;
  const approvazione: ReleaseGates['approvazione'] = release
    ? {
      ok: release.stato === 'attivata', stato: release.stato, richiesto_da: release.richiesto_da_username, deciso_da: release.deciso_da,
      motivo: release.stato === 'attivata' ? 'Approvata da una seconda persona' : release.stato === 'respinta' ? 'Richiesta respinta: può essere chiesta di nuovo'
        : `In attesa dell'approvazione di una persona diversa da ${release.richiesto_da_username}`,
    }
    : { ok: false, stato: 'non_richiesta', richiesto_da: null, deciso_da: null, motivo: 'Messa in vigore non ancora richiesta' };

  return {
    versione_id: versionId, regola_id: draft.regola_id, cod_regola: draft.cod_regola, nome: draft.nome, versione: draft.versione, hash,
    backtest, volume, approvazione, pronta: backtest.ok && volume.ok,
  };
}

/** The gates of every draft of the tenant (GET /api/engine/release-gates). */
export async function allDraftGates(trx: Knex.Transaction, codAzienda: string): Promise<ReleaseGates[]> {
  const drafts = await trx('monitoring_regole_versioni as v').join('monitoring_regole as r', 'r.id', 'v.regola_id')
    .where({ 'v.cod_azienda': codAzienda, 'v.stato': 'bozza' }).orderBy('r.cod_regola').pluck('v.id') as string[];
  const out: ReleaseGates[] = [];
  for (const id of drafts) {
    const g = await computeGates(trx, codAzienda, id);
    if (g) out.push(g);
  }
  return out;
}
