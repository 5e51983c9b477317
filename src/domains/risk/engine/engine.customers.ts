import type { Knex } from 'knex';
import { aggregateKey, requiredAggregates } from '../../../kit/conditions';
import type { Aggregato, Condizione } from '../../../kit/conditions/condition.types';
import { movementAggregates } from '../../movements';
import type { ProfiloRischio, Punteggio, VersioneRegole } from '../risk.types';
import { riskLists } from './engine.lists';
import { buildProfiles } from './engine.profiles';
import { IMPACT_AGGREGATE, scoreProfile } from './engine.score';
import { thresholds } from './engine.rulesets';

/** Every field path a condition reads (to load only what the rules need). */
export function fieldsRead(c: Condizione, into: Set<string> = new Set()): Set<string> {
  if ('tutti' in c) for (const x of c.tutti) fieldsRead(x, into);
  else if ('almeno_uno' in c) for (const x of c.almeno_uno) fieldsRead(x, into);
  else if ('non' in c) fieldsRead(c.non, into);
  else if ('campo' in c) into.add(c.campo);
  return into;
}

/** The movement aggregates a rule set needs, plus the yearly total the impact band reads. */
export function aggregatesFor(versione: VersioneRegole): Aggregato[] {
  const needed = requiredAggregates(versione.regole.filter((r) => r.attiva).map((r) => r.condizione));
  const key = aggregateKey(IMPACT_AGGREGATE);
  return needed.some((a) => aggregateKey(a) === key) ? needed : [...needed, IMPACT_AGGREGATE];
}

/**
 * Scores a batch of customers with a rule set: their profiles (a few queries), the movement
 * aggregates the rules read (the movements area's batched loader), then the pure engine. The
 * portfolio run and the dry run call it per batch of a few thousand; an assessment with one.
 * Codes that are not the tenant's customers are absent from the answer.
 */
export async function scoreCustomers(trx: Knex.Transaction, codAzienda: string, codici: readonly string[], versione: VersioneRegole, oggi: string)
  : Promise<Map<string, { profilo: ProfiloRischio; punteggio: Punteggio }>> {
  const out = new Map<string, { profilo: ProfiloRischio; punteggio: Punteggio }>();
  if (!codici.length) return out;
  const fields = new Set<string>();
  for (const r of versione.regole) if (r.attiva) fieldsRead(r.condizione, fields);
  const profiles = await buildProfiles(trx, codAzienda, codici, oggi, { paesiControparti: [...fields].some((f) => f.startsWith('geografia.paesi_controparti')) });
  if (!profiles.size) return out;
  const soglie = await thresholds(trx, codAzienda);
  const aggregati = await movementAggregates(trx, codAzienda, [...profiles.keys()], aggregatesFor(versione), oggi, riskLists());
  for (const [cod, profilo] of profiles) {
    out.set(cod, { profilo, punteggio: scoreProfile(versione, soglie, profilo, aggregati.get(cod) ?? {}, oggi) });
  }
  return out;
}

export type OrigineCalcolo = 'manuale' | 'evento' | 'portafoglio' | 'onboarding' | 'scadenza_override';

export interface ScoreRecord {
  cod_anagrafe: string;
  punteggio: Punteggio;
  origine: OrigineCalcolo;
  valutazione_id?: string | null;
  esecuzione_id?: string | null;
}

/**
 * Records calculations: one history row each (rischio_storico) and the customer's current row
 * (rischio_correnti, upserted). The class in force after overrides (classe_effettiva) is the
 * assessment's to set: it is left as it is unless `effettiva` is given (a class, or 'calcolata'
 * to make the calculated class the one in force). `probabilita` follows the class in force
 * (the matrix's row), `impatto` the calculation. Two statements whatever the number of rows:
 * each column goes as one array parameter (a portfolio batch of thousands of rows was otherwise
 * a statement of tens of thousands of parameters, slower to build than to run).
 */
export async function recordScores(trx: Knex.Transaction, codAzienda: string, rows: readonly ScoreRecord[],
  options: { effettiva?: 'calcolata' } = {}): Promise<void> {
  if (!rows.length) return;
  const at = new Date();
  const col = <T>(list: readonly ScoreRecord[], f: (r: ScoreRecord) => T) => list.map(f) as unknown as Knex.Value;
  await trx.raw(`
    insert into rischio_storico (cod_azienda, cod_anagrafe, versione_id, punteggio, classe, probabilita, impatto, origine, valutazione_id, esecuzione_id, calcolato_at)
    select ?, t.* , ?::timestamptz from unnest(?::text[], ?::uuid[], ?::int[], ?::text[], ?::smallint[], ?::smallint[], ?::text[], ?::uuid[], ?::uuid[])
      as t(cod_anagrafe, versione_id, punteggio, classe, probabilita, impatto, origine, valutazione_id, esecuzione_id)`, [
    codAzienda, at,
    col(rows, (r) => r.cod_anagrafe), col(rows, (r) => r.punteggio.versione.id), col(rows, (r) => r.punteggio.punteggio), col(rows, (r) => r.punteggio.classe),
    col(rows, (r) => r.punteggio.probabilita), col(rows, (r) => r.punteggio.impatto), col(rows, (r) => r.origine),
    col(rows, (r) => r.valutazione_id ?? null), col(rows, (r) => r.esecuzione_id ?? null),
  ]);
  // The latest of a customer present twice wins (PostgreSQL refuses to upsert one key twice in a statement).
  const latest = [...new Map(rows.map((r) => [r.cod_anagrafe, r])).values()];
  const effettiva = options.effettiva === 'calcolata';
  await trx.raw(`
    insert into rischio_correnti as rc (cod_azienda, cod_anagrafe, versione_id, punteggio, classe_calcolata, classe_effettiva, probabilita, impatto, contributi, valutazione_id, calcolato_at)
    select ?, t.cod_anagrafe, t.versione_id, t.punteggio, t.classe, case when ? then t.classe end, t.probabilita, t.impatto, t.contributi, t.valutazione_id, ?::timestamptz
      from unnest(?::text[], ?::uuid[], ?::int[], ?::text[], ?::smallint[], ?::smallint[], ?::jsonb[], ?::uuid[])
        as t(cod_anagrafe, versione_id, punteggio, classe, probabilita, impatto, contributi, valutazione_id)
    on conflict (cod_azienda, cod_anagrafe) do update set
      versione_id = excluded.versione_id, punteggio = excluded.punteggio, classe_calcolata = excluded.classe_calcolata,
      -- The matrix's probability is the class in force's (docs/risk.md): a class set by a released override stays where it is.
      probabilita = case when ? then excluded.probabilita else case coalesce(rc.classe_effettiva, excluded.classe_calcolata)
        when 'basso' then 1 when 'medio' then 2 when 'medio_alto' then 3 else 4 end end,
      impatto = excluded.impatto, contributi = excluded.contributi, calcolato_at = excluded.calcolato_at,
      valutazione_id = coalesce(excluded.valutazione_id, rc.valutazione_id),
      classe_effettiva = case when ? then excluded.classe_effettiva else rc.classe_effettiva end`, [
    codAzienda, effettiva, at,
    col(latest, (r) => r.cod_anagrafe), col(latest, (r) => r.punteggio.versione.id), col(latest, (r) => r.punteggio.punteggio), col(latest, (r) => r.punteggio.classe),
    col(latest, (r) => r.punteggio.probabilita), col(latest, (r) => r.punteggio.impatto), col(latest, (r) => JSON.stringify(r.punteggio.contributi)),
    col(latest, (r) => r.valutazione_id ?? null), effettiva, effettiva,
  ]);
}
