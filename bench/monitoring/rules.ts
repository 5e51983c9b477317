import { withTenant } from '../../src/db/tenant';
import { activateRuleVersion } from '../../src/domains/monitoring';
import type { Aggregato, Condizione } from '../../src/kit/conditions';
import type { AppStack } from '../platform/app-stack';
import type { BenchHttp } from '../platform/load';

/**
 * The benchmark's 20 rules in force: one or two per typology, written in the condition language
 * as an officer would (thresholds, windows, the customer's own history, the declared profile),
 * with the aggregates a real rule set reads: sums, counts, distinct (new) counterparties, cash
 * share, ratios to history and to the declared profile, pass-through, days since the previous
 * movement, the high-risk lists. They are created through POST /api/monitoring/rules (the
 * product's validation) and activated by the release gate's last step (activateRuleVersion),
 * as the monitoring tests do: the gates themselves are not what is measured.
 */
interface BenchRule { cod: string; tipologia: string; ambito: 'evento' | 'giornaliero'; punteggio: number; condizione: Condizione; livello?: 'cliente' | 'rapporto' }

type Op = Exclude<Condizione, { tutti: unknown } | { almeno_uno: unknown } | { non: unknown }>['op'];
const agg = (aggregato: Aggregato, op: Exclude<Op, 'in' | 'not_in' | 'intersects'>, valore?: unknown) => ({ aggregato, op, valore }) as Condizione;
const field = (campo: string, op: Op, valore?: unknown) => ({ campo, op, valore }) as Condizione;

export const BENCH_RULES: readonly BenchRule[] = [
  { cod: 'strutt_contanti', tipologia: 'strutturazione_contanti', ambito: 'evento', punteggio: 70, condizione: { tutti: [
    field('evento.contanti', 'eq', true), field('evento.importo_eur', 'between', [7_000, 9_999.99]),
    agg({ fn: 'count', finestra_giorni: 7, contanti: true, importo_min: 5_000, importo_max: 9_999.99 }, 'gte', 3)] } },
  { cod: 'strutt_contanti_mese', tipologia: 'strutturazione_contanti', ambito: 'giornaliero', punteggio: 60, condizione: { tutti: [
    agg({ fn: 'count', finestra_giorni: 30, contanti: true, segno: 'entrata', importo_min: 2_000, importo_max: 9_999.99 }, 'gte', 6),
    agg({ fn: 'sum', finestra_giorni: 30, contanti: true, segno: 'entrata' }, 'gte', 25_000)] } },
  { cod: 'contanti_soglia', tipologia: 'contanti_oltre_soglia', ambito: 'giornaliero', punteggio: 60, condizione: { tutti: [
    agg({ fn: 'sum', finestra_giorni: 30, contanti: true }, 'gte', 10_000), field('dichiarato.uso_contanti', 'ne', 'alto')] } },
  { cod: 'contanti_soglia_alto', tipologia: 'contanti_oltre_soglia', ambito: 'giornaliero', punteggio: 45, condizione: { tutti: [
    agg({ fn: 'sum', finestra_giorni: 30, contanti: true }, 'gte', 60_000), agg({ fn: 'ratio_history', finestra_giorni: 30, contanti: true, storico_giorni: 365 }, 'gt', 2)] } },
  { cod: 'picco_velocita', tipologia: 'picco_velocita', ambito: 'giornaliero', punteggio: 45, condizione: { tutti: [
    agg({ fn: 'count', finestra_giorni: 7 }, 'gte', 15), agg({ fn: 'ratio_history', finestra_giorni: 7, storico_giorni: 365, misura: 'numero' }, 'gt', 4)] } },
  { cod: 'picco_volume', tipologia: 'picco_volume', ambito: 'giornaliero', punteggio: 50, condizione: { tutti: [
    agg({ fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }, 'gt', 4), agg({ fn: 'sum', finestra_giorni: 30 }, 'gt', 20_000)] } },
  { cod: 'picco_volume_pari', tipologia: 'picco_volume', ambito: 'giornaliero', punteggio: 40, condizione: { tutti: [
    agg({ fn: 'peer_ratio', finestra_giorni: 30 }, 'gt', 8), agg({ fn: 'sum', finestra_giorni: 30 }, 'gt', 50_000)] } },
  { cod: 'paesi_rischio', tipologia: 'paesi_alto_rischio', ambito: 'evento', punteggio: 65, condizione: { tutti: [
    field('evento.importo_eur', 'gte', 1_000),
    { almeno_uno: [field('evento.controparte_paese', 'in', { lista: 'paesi_alto_rischio' }), field('evento.controparte_iban_paese', 'in', { lista: 'paesi_alto_rischio' })] }] } },
  { cod: 'paesi_gafi_ripetuti', tipologia: 'paesi_alto_rischio', ambito: 'giornaliero', punteggio: 55, condizione: { tutti: [
    agg({ fn: 'count', finestra_giorni: 90, paesi_controparte: { lista: 'paesi_gafi_grey' } }, 'gte', 3),
    agg({ fn: 'sum', finestra_giorni: 90, paesi_controparte: { lista: 'paesi_gafi_grey' } }, 'gte', 15_000)] } },
  { cod: 'importi_tondi', tipologia: 'importi_tondi', ambito: 'giornaliero', punteggio: 35, condizione: { tutti: [
    agg({ fn: 'count', finestra_giorni: 30, tondi: true, importo_min: 2_000 }, 'gte', 5),
    { non: field('cliente.tipo_soggetto', 'eq', 'societa') }] } },
  { cod: 'transito_rapido', tipologia: 'transito_rapido', ambito: 'giornaliero', punteggio: 60, condizione: { tutti: [
    agg({ fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 2 }, 'gte', 0.8), agg({ fn: 'sum', finestra_giorni: 30, segno: 'entrata' }, 'gte', 30_000)] } },
  { cod: 'fan_in', tipologia: 'fan_in', ambito: 'giornaliero', punteggio: 55, condizione: { tutti: [
    agg({ fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'entrata', storico_giorni: 180 }, 'gte', 15),
    field('cliente.tipo_soggetto', 'eq', 'persona_fisica')] } },
  { cod: 'fan_out', tipologia: 'fan_out', ambito: 'giornaliero', punteggio: 55, condizione: { tutti: [
    agg({ fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'uscita', storico_giorni: 180 }, 'gte', 15),
    agg({ fn: 'avg', finestra_giorni: 30, segno: 'uscita', causali: ['Stipendi'] }, 'not_exists')] } },
  { cod: 'dormiente', tipologia: 'riattivazione_dormiente', ambito: 'evento', punteggio: 50, condizione: { tutti: [
    agg({ fn: 'days_since_previous', finestra_giorni: 730 }, 'gte', 180), field('evento.importo_eur', 'gte', 5_000)] } },
  { cod: 'profilo_volume', tipologia: 'incoerenza_profilo_volume', ambito: 'giornaliero', punteggio: 50, condizione: { tutti: [
    agg({ fn: 'ratio_declared', finestra_giorni: 30 }, 'gt', 4), agg({ fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }, 'gt', 2)] } },
  { cod: 'profilo_contanti', tipologia: 'incoerenza_profilo_contanti', ambito: 'giornaliero', punteggio: 55, condizione: { tutti: [
    field('dichiarato.uso_contanti', 'eq', 'nessuno'), agg({ fn: 'sum', finestra_giorni: 30, contanti: true, segno: 'entrata' }, 'gt', 3_000)] } },
  { cod: 'profilo_contanti_quota', tipologia: 'incoerenza_profilo_contanti', ambito: 'giornaliero', punteggio: 40, condizione: { tutti: [
    field('dichiarato.uso_contanti', 'in', ['nessuno', 'basso']), agg({ fn: 'cash_share', finestra_giorni: 90 }, 'gt', 0.6),
    agg({ fn: 'sum', finestra_giorni: 90, contanti: true }, 'gt', 15_000)] } },
  { cod: 'crypto_sanzionati', tipologia: 'crypto_indirizzi_sanzionati', ambito: 'evento', punteggio: 95, condizione: { tutti: [
    field('evento.indirizzo_controparte', 'in', { lista: 'indirizzi_crypto_sanzionati' })] } },
  { cod: 'crypto_interni', tipologia: 'crypto_liste_interne', ambito: 'evento', punteggio: 80, condizione: { tutti: [
    field('evento.indirizzo_controparte', 'in', { lista: 'indirizzi_crypto_tenant' })] } },
  { cod: 'contanti_terzi', tipologia: 'altro', ambito: 'evento', punteggio: 40, condizione: { tutti: [
    field('evento.contanti', 'eq', true), field('evento.esecutore_terzo', 'eq', true), field('evento.importo_eur', 'gte', 3_000)] } },
];

/** The 20 rules created through the API and made active; answers how many are in force. */
export async function seedBenchRules(stack: AppStack, client: BenchHttp, token: string, codAzienda: string): Promise<number> {
  for (const r of BENCH_RULES) {
    const body = {
      cod_regola: r.cod, nome: `Bench ${r.cod.replaceAll('_', ' ')}`, tipologia: r.tipologia, condizione: r.condizione, ambito: r.ambito,
      livello: r.livello ?? 'cliente', punteggio: r.punteggio, esito: 'alert', finestra_dedup_giorni: 30, indicatori: [], descrizione: 'Regola del benchmark',
    };
    const a = await client.request('POST', '/api/monitoring/rules', { json: body, headers: { 'x-csrf-token': token } });
    if (a.status !== 201) throw new Error(`rule ${r.cod}: POST /api/monitoring/rules answered ${a.status}: ${a.body.slice(0, 600)}`);
    const draftId = (JSON.parse(a.body) as { bozza: { id: string } }).bozza.id;
    await withTenant(stack.deps.db, { codAzienda, actor: 'bench' }, (trx) =>
      activateRuleVersion(trx, { codAzienda, versionId: draftId, actor: { id: 'bench-gate', username: 'bench-gate' } }));
  }
  const [n] = await stack.owner('monitoring_regole_versioni').where({ cod_azienda: codAzienda, stato: 'attiva' }).count('* as n');
  return Number(n!.n);
}
