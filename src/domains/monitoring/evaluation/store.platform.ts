import type { Knex } from 'knex';
import { activeRuleVersions } from '../rules/rules.repo';
import { loadLists } from '../lists/lists.repo';
import {
  compareMovements, USI_CONTANTI, type Giorno, type MovimentoMonitorato, type ProfiloCliente, type RapportoMonitorato, type StatistichePari,
  type TipoSoggetto, type UsoContanti,
} from '../engine';
import type { MonitoringStore } from './store';
import type { RuleVersionData } from './rule-set';

/**
 * The store over the platform's own tables (anagrafe, rapporti, movimenti, kyt_eventi, the
 * rules, liste_riferimento, monitoring_statistiche_pari). Histories read the customers' index
 * ranges of the months in [dal, al] only (partition pruning on movimenti).
 */

/** How old the peer medians may be and still be used (the daily batch computes them every day). */
export const PEER_STATISTICS_MAX_AGE_DAYS = 7;

/** The pseudo-relationship a KYT event is booked on in the history (transfers belong to no account of the records). */
export const kytRelationship = (chain: string) => `kyt:${chain}`;

const HOLDER_ROLES = ['intestatario', 'cointestatario'];

interface CustomerRow {
  cod_anagrafe: string; codice_esterno: string | null; tipo_soggetto: string; ateco: string | null; professione: string | null; pep: boolean;
  classe_rischio: string | null; paese_residenza: string | null; data_nascita: string | null; data_onboarding: string | null;
  volume_mensile_atteso_eur: string | number | null; uso_contanti_atteso: string | null;
}

async function profiles(trx: Knex.Transaction, codAzienda: string, cods: readonly string[]): Promise<Map<string, ProfiloCliente>> {
  const out = new Map<string, ProfiloCliente>();
  if (!cods.length) return out;
  const rows = await trx('anagrafe').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', [...new Set(cods)])
    .select('cod_anagrafe', 'codice_esterno', 'tipo_soggetto', 'ateco', 'professione', 'pep', 'classe_rischio', 'paese_residenza',
      trx.raw('data_nascita::text as data_nascita'), trx.raw('data_onboarding::text as data_onboarding'), 'volume_mensile_atteso_eur', 'uso_contanti_atteso') as CustomerRow[];
  // The relationships the customers hold or have a role on, with every holder of each.
  // Two index lookups (holder; any role) as one set of codes: an `or exists` here walked every relationship of the tenant.
  const related = trx('rapporti').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', cods).select('cod_rapporto')
    .union((u) => u.from('rapporti_soggetti').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', cods).select('cod_rapporto'));
  const rels = await trx('rapporti as r').where('r.cod_azienda', codAzienda).whereIn('r.cod_rapporto', related)
    .select('r.cod_rapporto', 'r.cod_anagrafe', 'r.tipo', trx.raw('r.data_apertura::text as data_apertura'),
      trx.raw(`array(select s.cod_anagrafe from rapporti_soggetti s where s.cod_azienda = r.cod_azienda and s.cod_rapporto = r.cod_rapporto
        and s.ruolo = any(?) and s.al is null) as intestatari`, [HOLDER_ROLES]),
      trx.raw(`array(select s.cod_anagrafe from rapporti_soggetti s where s.cod_azienda = r.cod_azienda and s.cod_rapporto = r.cod_rapporto) as soggetti`)) as
    { cod_rapporto: string; cod_anagrafe: string; tipo: string; data_apertura: string | null; intestatari: string[]; soggetti: string[] }[];
  const byCustomer = new Map<string, RapportoMonitorato[]>();
  for (const r of rels) {
    const rapporto: RapportoMonitorato = { cod_rapporto: r.cod_rapporto, tipo: r.tipo, data_apertura: r.data_apertura, intestatari: [...new Set([r.cod_anagrafe, ...r.intestatari])] };
    for (const c of new Set([r.cod_anagrafe, ...r.soggetti])) (byCustomer.get(c) ?? byCustomer.set(c, []).get(c)!).push(rapporto);
  }
  for (const r of rows) {
    const uso = r.uso_contanti_atteso as UsoContanti | null;
    out.set(r.cod_anagrafe, {
      cod_anagrafe: r.cod_anagrafe, codice_esterno: r.codice_esterno, tipo_soggetto: r.tipo_soggetto as TipoSoggetto, ateco: r.ateco,
      professione: r.professione, pep: r.pep, classe_rischio: r.classe_rischio, paese_residenza: r.paese_residenza, data_nascita: r.data_nascita,
      data_onboarding: r.data_onboarding, volume_mensile_atteso_eur: r.volume_mensile_atteso_eur === null ? null : Number(r.volume_mensile_atteso_eur),
      uso_contanti_atteso: uso && (USI_CONTANTI as readonly string[]).includes(uso) ? uso : null,
      rapporti: byCustomer.get(r.cod_anagrafe) ?? [],
    });
  }
  return out;
}

async function histories(trx: Knex.Transaction, codAzienda: string, cods: readonly string[], dal: Giorno, al: Giorno) {
  const out = new Map<string, MovimentoMonitorato[]>(cods.map((c) => [c, []]));
  if (!cods.length) return out;
  const list = [...new Set(cods)];
  const movements = await trx('movimenti').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', list)
    .andWhere('data_operazione', '>=', dal).andWhere('data_operazione', '<=', al)
    .select('id', 'cod_anagrafe', 'cod_rapporto', trx.raw('data_operazione::text as data_operazione'), trx.raw('ora_operazione::text as ora_operazione'),
      trx.raw('importo_eur::float8 as importo_eur'), 'segno', 'contanti', 'causale', 'canale', 'controparte_nome', 'controparte_conto', 'controparte_paese',
      'cod_anagrafe_esecutore') as MovimentoMonitorato[];
  for (const m of movements) out.get(m.cod_anagrafe)!.push(m);
  const kyt = await trx('kyt_eventi').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', list)
    .andWhere('giorno', '>=', dal).andWhere('giorno', '<=', al)
    .select('id', 'cod_anagrafe', 'chain', 'hash', 'direzione', 'indirizzo_da', 'indirizzo_a', 'asset', trx.raw('importo_eur::float8 as importo_eur'),
      trx.raw('giorno::text as giorno'), 'ora') as
    { id: string; cod_anagrafe: string; chain: string; hash: string; direzione: 'entrata' | 'uscita'; indirizzo_da: string; indirizzo_a: string; asset: string; importo_eur: number; giorno: string; ora: string }[];
  for (const e of kyt) out.get(e.cod_anagrafe)!.push(kytMovement(e));
  for (const h of out.values()) h.sort(compareMovements);
  return out;
}

/** A KYT event as a movement of the customer's history. */
export function kytMovement(e: {
  id: string; cod_anagrafe: string; chain: string; hash: string; direzione: 'entrata' | 'uscita'; indirizzo_da: string; indirizzo_a: string;
  asset: string; importo_eur: number; giorno: string; ora: string;
}): MovimentoMonitorato {
  return {
    id: e.id, cod_anagrafe: e.cod_anagrafe, cod_rapporto: kytRelationship(e.chain), data_operazione: e.giorno, ora_operazione: e.ora,
    importo_eur: Number(e.importo_eur), segno: e.direzione, contanti: false, canale: 'kyt', causale: null,
    indirizzo_controparte: e.direzione === 'entrata' ? e.indirizzo_da : e.indirizzo_a, asset: e.asset, chain: e.chain, hash: e.hash,
  };
}

async function activeRules(trx: Knex.Transaction, codAzienda: string): Promise<RuleVersionData[]> {
  return (await activeRuleVersions(trx, codAzienda)).map((v) => ({ ...v, indicatori: v.indicatori ?? [] }));
}

async function peerStatistics(trx: Knex.Transaction, codAzienda: string, giorno: Giorno): Promise<StatistichePari | undefined> {
  const row = await trx('monitoring_statistiche_pari').where('cod_azienda', codAzienda).andWhere('giorno', '<=', giorno)
    .andWhere('giorno', '>', trx.raw(`?::date - ${PEER_STATISTICS_MAX_AGE_DAYS}`, [giorno]))
    .orderBy('giorno', 'desc').first(trx.raw('giorno::text as giorno'), 'mediane') as { giorno: string; mediane: StatistichePari['mediane'] } | undefined;
  return row ? { giorno: row.giorno, mediane: row.mediane } : undefined;
}

export const platformStore: MonitoringStore = { profiles, histories, lists: loadLists, activeRules, peerStatistics };
