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
  rapporti: { cod_rapporto: string; cod_anagrafe: string; tipo: string; data_apertura: string | null; intestatari: string[] }[];
}

/**
 * One statement: each customer with the relationships it holds or has a role on (two index
 * lookups as one set of codes: an `or exists` here walked every relationship of the tenant), each
 * with its holders (the holder of record and the current holders and co-holders).
 */
const PROFILES_SQL = `
  select a.cod_anagrafe, a.codice_esterno, a.tipo_soggetto, a.ateco, a.professione, a.pep, a.classe_rischio, a.paese_residenza,
         a.data_nascita::text as data_nascita, a.data_onboarding::text as data_onboarding, a.volume_mensile_atteso_eur, a.uso_contanti_atteso,
         coalesce((
           select json_agg(json_build_object('cod_rapporto', r.cod_rapporto, 'cod_anagrafe', r.cod_anagrafe, 'tipo', r.tipo,
                    'data_apertura', r.data_apertura::text,
                    'intestatari', array(select s.cod_anagrafe from rapporti_soggetti s where s.cod_azienda = r.cod_azienda
                                           and s.cod_rapporto = r.cod_rapporto and s.ruolo = any(:ruoli) and s.al is null)))
             from rapporti r
            where r.cod_azienda = a.cod_azienda
              and r.cod_rapporto in (select cod_rapporto from rapporti where cod_azienda = a.cod_azienda and cod_anagrafe = a.cod_anagrafe
                                     union
                                     select cod_rapporto from rapporti_soggetti where cod_azienda = a.cod_azienda and cod_anagrafe = a.cod_anagrafe)
         ), '[]') as rapporti
    from anagrafe a
   where a.cod_azienda = :cod and a.cod_anagrafe = any(:cods)`;

async function profiles(trx: Knex.Transaction, codAzienda: string, cods: readonly string[]): Promise<Map<string, ProfiloCliente>> {
  const out = new Map<string, ProfiloCliente>();
  if (!cods.length) return out;
  const { rows } = await trx.raw<{ rows: CustomerRow[] }>(PROFILES_SQL, { cod: codAzienda, cods: [...new Set(cods)], ruoli: HOLDER_ROLES })
    // A named statement: parsed once per connection, its plan kept when PostgreSQL finds the generic one as good.
    .options({ name: 'monitoring-profili' });
  for (const r of rows) {
    const uso = r.uso_contanti_atteso as UsoContanti | null;
    out.set(r.cod_anagrafe, {
      cod_anagrafe: r.cod_anagrafe, codice_esterno: r.codice_esterno, tipo_soggetto: r.tipo_soggetto as TipoSoggetto, ateco: r.ateco,
      professione: r.professione, pep: r.pep, classe_rischio: r.classe_rischio, paese_residenza: r.paese_residenza, data_nascita: r.data_nascita,
      data_onboarding: r.data_onboarding, volume_mensile_atteso_eur: r.volume_mensile_atteso_eur === null ? null : Number(r.volume_mensile_atteso_eur),
      uso_contanti_atteso: uso && (USI_CONTANTI as readonly string[]).includes(uso) ? uso : null,
      rapporti: r.rapporti.map((x): RapportoMonitorato => ({
        cod_rapporto: x.cod_rapporto, tipo: x.tipo, data_apertura: x.data_apertura, intestatari: [...new Set([x.cod_anagrafe, ...x.intestatari])],
      })),
    });
  }
  return out;
}

/**
 * One statement: the movements and the KYT events of the customers in [dal, al], through
 * monitoring_storico (migration 20261214000100): the same query kept as a generic plan per
 * connection, the months of movimenti pruned when it starts instead of planned on every call.
 */
const HISTORIES_SQL = 'select * from monitoring_storico(:cod, :cods, :dal::date, :al::date)';

interface HistoryRow {
  fonte: 'm' | 'k'; id: string; cod_anagrafe: string; cod_rapporto: string; giorno: string; ora: string; importo_eur: number; segno: string;
  contanti: boolean; causale: string | null; canale: string | null; controparte_nome: string | null; controparte_conto: string | null;
  controparte_paese: string | null; cod_anagrafe_esecutore: string | null; chain: string; hash: string; indirizzo_da: string; indirizzo_a: string; asset: string;
}

async function histories(trx: Knex.Transaction, codAzienda: string, cods: readonly string[], dal: Giorno, al: Giorno) {
  const out = new Map<string, MovimentoMonitorato[]>(cods.map((c) => [c, []]));
  if (!cods.length) return out;
  const { rows } = await trx.raw<{ rows: HistoryRow[] }>(HISTORIES_SQL, { cod: codAzienda, cods: [...new Set(cods)], dal, al });
  for (const r of rows) {
    out.get(r.cod_anagrafe)!.push(r.fonte === 'k'
      ? kytMovement({ ...r, direzione: r.segno as 'entrata' | 'uscita' })
      : {
        id: r.id, cod_anagrafe: r.cod_anagrafe, cod_rapporto: r.cod_rapporto, data_operazione: r.giorno, ora_operazione: r.ora,
        importo_eur: r.importo_eur, segno: r.segno as MovimentoMonitorato['segno'], contanti: r.contanti, causale: r.causale, canale: r.canale,
        controparte_nome: r.controparte_nome, controparte_conto: r.controparte_conto, controparte_paese: r.controparte_paese,
        cod_anagrafe_esecutore: r.cod_anagrafe_esecutore,
      } as MovimentoMonitorato);
  }
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

export const platformStore: MonitoringStore = { profiles, histories, lists: loadLists, activeRules, peerStatistics, stamped: true };
