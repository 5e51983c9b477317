import type { Knex } from 'knex';
import { aggregateKey, describeAggregate, loadedAggregate, type Aggregato, type Condizione } from '../../../kit/conditions';
import { movementsByIds } from '../../movements';
import { describeMonitoringCondition, ETICHETTE_CAMPI, LISTE_MONITORAGGIO } from '../monitoring.conditions';
import { TIPOLOGIA_LABELS } from '../monitoring.typologies';
import { decisionOfEvent, findDecision, type DecisionRecord } from './decisions.repo';

/**
 * A decision's trace (GET /api/engine/evidence/:codDecisione, /kyt/decision/:codDecisione, the
 * movement's page): the event judged, every rule with its outcome, the condition in Italian, and
 * each value the rule read named in Italian (a field by its label, an aggregate by what it
 * computes), with the rule and list versions it read.
 */

/** How a read's value reads: an amount in euro, a share (0–1), or as it is. */
export type FormatoLettura = 'euro' | 'quota' | null;
export interface LetturaSpiegata { path: string; descrizione: string; valore: unknown; formato: FormatoLettura }

const EURO_FIELDS = new Set(['evento.importo_eur', 'dichiarato.volume_mensile_eur']);
/** The format of what a read is: amounts of the aggregates that add or compare amounts, the shares. */
export function formatOf(path: string, aggregates: ReadonlyMap<string, Aggregato>): FormatoLettura {
  const a = aggregates.get(path);
  if (!a) return EURO_FIELDS.has(path) ? 'euro' : null;
  if (a.fn === 'sum' || a.fn === 'avg' || a.fn === 'max') return 'euro';
  if (a.fn === 'cash_share' || a.fn === 'passthrough_share') return 'quota';
  return null;
}
export interface RegolaSpiegata {
  cod_regola: string; nome: string; versione: number; versione_id: string; tipologia: string; tipologia_nome: string; vero: boolean;
  esito: string | null; punteggio: number; cod_rapporto: string | null; condizione: string | null; letti: LetturaSpiegata[];
  errore: { codice: string; messaggio: string } | null;
}

function aggregatesOf(c: Condizione | undefined, out = new Map<string, Aggregato>()): Map<string, Aggregato> {
  if (!c) return out;
  if ('tutti' in c) c.tutti.forEach((x) => aggregatesOf(x, out));
  else if ('almeno_uno' in c) c.almeno_uno.forEach((x) => aggregatesOf(x, out));
  else if ('non' in c) aggregatesOf(c.non, out);
  else if ('aggregato' in c) {
    out.set(`aggregato:${aggregateKey(c.aggregato)}`, c.aggregato);
    out.set(`aggregato:${aggregateKey(loadedAggregate(c.aggregato))}`, c.aggregato);
  }
  return out;
}

const describeOptions = { etichette: ETICHETTE_CAMPI, liste: LISTE_MONITORAGGIO, volumeDichiarato: 'mensile' as const };

/** What a read is, in Italian: a field's label, an aggregate's phrase, the path itself when neither is known. */
export function describeRead(path: string, aggregates: ReadonlyMap<string, Aggregato>): string {
  const a = aggregates.get(path);
  if (a) {
    const text = describeAggregate(a, describeOptions);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  const label = ETICHETTE_CAMPI[path];
  return label ? label.charAt(0).toUpperCase() + label.slice(1) : path;
}

export async function explainDecision(trx: Knex.Transaction, codAzienda: string, d: DecisionRecord) {
  const versionIds = [...new Set(d.regole.map((r) => r.versione_id))];
  const versions = new Map((versionIds.length ? await trx('monitoring_regole_versioni as v').join('monitoring_regole as r', 'r.id', 'v.regola_id')
    .where('v.cod_azienda', codAzienda).whereIn('v.id', versionIds).select('v.id', 'v.condizione', 'r.nome') as { id: string; condizione: Condizione; nome: string }[] : [])
    .map((v) => [v.id, v]));
  const regole: RegolaSpiegata[] = d.regole.map((r) => {
    const v = versions.get(r.versione_id);
    const aggregates = aggregatesOf(v?.condizione);
    let condizione: string | null = null;
    try { condizione = v ? describeMonitoringCondition(v.condizione) : null; } catch { condizione = null; }
    return {
      cod_regola: r.cod_regola, nome: v?.nome ?? r.cod_regola, versione: r.versione, versione_id: r.versione_id, tipologia: r.tipologia,
      tipologia_nome: TIPOLOGIA_LABELS[r.tipologia as keyof typeof TIPOLOGIA_LABELS] ?? r.tipologia, vero: r.vero, esito: r.esito, punteggio: r.punteggio,
      cod_rapporto: r.cod_rapporto, condizione, errore: r.errore,
      letti: r.letti.map((l) => ({ path: l.path, descrizione: describeRead(l.path, aggregates), valore: l.valore, formato: formatOf(l.path, aggregates) })),
    };
  });
  const cliente = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: d.cod_anagrafe })
    .first('cod_anagrafe', 'denominazione', trx.raw("to_jsonb(anagrafe.*) ->> 'codice_esterno' as codice_esterno")) as
    { cod_anagrafe: string; denominazione: string; codice_esterno: string | null } | undefined;
  const movimento = d.fonte_evento === 'movimento' && d.evento_id ? (await movementsByIds(trx, codAzienda, [d.evento_id], [d.giorno]))[0] ?? null : null;
  const kyt = d.fonte_evento === 'kyt' && d.evento_id
    ? await trx('kyt_eventi').where({ cod_azienda: codAzienda, id: d.evento_id })
      .first('id', 'cod_evento', 'chain', 'hash', 'direzione', 'indirizzo_da', 'indirizzo_a', 'asset', trx.raw('importo::text as importo'),
        trx.raw('importo_eur::float8 as importo_eur'), 'data_ora') ?? null
    : null;
  const liste = Object.entries(d.versioni_liste).map(([codice, versione]) => ({ codice, nome: LISTE_MONITORAGGIO[codice] ?? codice, versione }));
  return {
    cod_decisione: d.cod_decisione, giorno: d.giorno, tipo: d.tipo, fonte_evento: d.fonte_evento, evento_id: d.evento_id, esito: d.esito,
    punteggio: d.punteggio, origine: d.origine, motore: d.motore, durata_ms: d.durata_ms, created_at: d.created_at, alert: d.alert,
    cliente: cliente ?? { cod_anagrafe: d.cod_anagrafe, denominazione: d.cod_anagrafe, codice_esterno: null },
    movimento, evento_kyt: kyt, regole, versioni_regole: d.versioni_regole, liste,
  };
}
export type DecisionTrace = Awaited<ReturnType<typeof explainDecision>>;

export async function traceByCode(trx: Knex.Transaction, codAzienda: string, code: string): Promise<DecisionTrace | undefined> {
  const d = await findDecision(trx, codAzienda, code);
  return d ? explainDecision(trx, codAzienda, d) : undefined;
}

/** The trace of a movement's decision (its page), undefined while it has none. */
export async function traceOfMovement(trx: Knex.Transaction, codAzienda: string, movimentoId: string, giorno: string): Promise<DecisionTrace | undefined> {
  const d = await decisionOfEvent(trx, codAzienda, movimentoId, giorno);
  return d ? explainDecision(trx, codAzienda, d) : undefined;
}
