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

/** Rows per statement: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 2_000;

/**
 * Records calculations: one history row each (rischio_storico) and the customer's current row
 * (rischio_correnti, upserted). The class in force after overrides (classe_effettiva) is the
 * assessment's to set: it is left as it is unless `effettiva` is given (a class, or 'calcolata'
 * to make the calculated class the one in force). `probabilita` follows the class in force
 * (the matrix's row), `impatto` the calculation.
 */
export async function recordScores(trx: Knex.Transaction, codAzienda: string, rows: readonly ScoreRecord[],
  options: { effettiva?: 'calcolata' } = {}): Promise<void> {
  const at = new Date();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await trx('rischio_storico').insert(chunk.map((r) => ({
      cod_azienda: codAzienda, cod_anagrafe: r.cod_anagrafe, versione_id: r.punteggio.versione.id, punteggio: r.punteggio.punteggio,
      classe: r.punteggio.classe, probabilita: r.punteggio.probabilita, impatto: r.punteggio.impatto, origine: r.origine,
      valutazione_id: r.valutazione_id ?? null, esecuzione_id: r.esecuzione_id ?? null, calcolato_at: at,
    })));
    // The latest of a customer present twice in a batch wins (Postgres refuses to upsert one key twice in a statement).
    const latest = new Map(chunk.map((r) => [r.cod_anagrafe, r]));
    const upsert = trx('rischio_correnti').insert([...latest.values()].map((r) => ({
      cod_azienda: codAzienda, cod_anagrafe: r.cod_anagrafe, versione_id: r.punteggio.versione.id, punteggio: r.punteggio.punteggio,
      classe_calcolata: r.punteggio.classe, classe_effettiva: options.effettiva ? r.punteggio.classe : null,
      probabilita: r.punteggio.probabilita, impatto: r.punteggio.impatto, contributi: JSON.stringify(r.punteggio.contributi),
      valutazione_id: r.valutazione_id ?? null, calcolato_at: at,
    }))).onConflict(['cod_azienda', 'cod_anagrafe']);
    const excluded = (c: string) => trx.raw('excluded.??', [c]);
    await upsert.merge({
      versione_id: excluded('versione_id'), punteggio: excluded('punteggio'), classe_calcolata: excluded('classe_calcolata'),
      // The matrix's probability is the class in force's (docs/risk.md): a class set by a released override stays where it is.
      probabilita: options.effettiva ? excluded('probabilita') : trx.raw(`case coalesce(rischio_correnti.classe_effettiva, excluded.classe_calcolata)
        when 'basso' then 1 when 'medio' then 2 when 'medio_alto' then 3 else 4 end`),
      impatto: excluded('impatto'), contributi: excluded('contributi'), calcolato_at: excluded('calcolato_at'),
      valutazione_id: trx.raw('coalesce(excluded.valutazione_id, rischio_correnti.valutazione_id)'),
      ...(options.effettiva ? { classe_effettiva: excluded('classe_effettiva') } : {}),
    });
  }
}
