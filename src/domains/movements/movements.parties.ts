import type { Knex } from 'knex';

/** A movement's problem, by its place in the batch and its field: the API's 422 and the import's error report. */
export interface MovementItemError { index: number; field: string; message: string }

interface PartyRef { cod_rapporto: string; cod_anagrafe?: string | undefined; data_operazione: string; cod_anagrafe_esecutore?: string | undefined }

/** A role on a relationship and the days it covers (dates as 'YYYY-MM-DD'; `al` null while it lasts). */
interface Role { cod_rapporto: string; cod_anagrafe: string; dal: string; al: string | null }

/**
 * The subject each movement is read under, checked against the tenant's records in one query
 * for the whole batch: the relationship must exist (another tenant's is hidden by row-level
 * security, so it does not exist here either); the subject, when given, must be the holder
 * (rapporti.cod_anagrafe) or hold a role on the relationship (rapporti_soggetti: co-holder,
 * executor, delegate, beneficial owner) on the operation's date; when absent it is the holder.
 * The executor (cod_anagrafe_esecutore), when given, may be any subject of the tenant: a delegate,
 * a legal representative, a third party at the counter need no role on the relationship (a second
 * query, only when a row names one). Returns the subjects by index, or the errors.
 */
export async function resolveMovementParties(trx: Knex, codAzienda: string, rows: readonly PartyRef[]):
Promise<{ codAnagrafe: (string | undefined)[]; errors: MovementItemError[] }> {
  const codes = [...new Set(rows.map((r) => r.cod_rapporto))];
  const executors = [...new Set(rows.flatMap((r) => (r.cod_anagrafe_esecutore ? [r.cod_anagrafe_esecutore] : [])))];
  // One after the other: a tenant transaction is one connection (pg deprecates overlapping queries on a client).
  // Each relationship with its roles, in one statement.
  const { rows: rapporti } = await trx.raw<{ rows: { cod_rapporto: string; cod_anagrafe: string; ruoli: Omit<Role, 'cod_rapporto'>[] }[] }>(`
    select r.cod_rapporto, r.cod_anagrafe,
           coalesce((select json_agg(json_build_object('cod_anagrafe', s.cod_anagrafe, 'dal', s.dal::text, 'al', s.al::text))
                       from rapporti_soggetti s where s.cod_azienda = r.cod_azienda and s.cod_rapporto = r.cod_rapporto), '[]') as ruoli
      from rapporti r where r.cod_azienda = ? and r.cod_rapporto = any(?)`, [codAzienda, codes]).options({ name: 'movimenti-rapporti-ruoli' });
  const roles: Role[] = rapporti.flatMap((r) => r.ruoli.map((x) => ({ ...x, cod_rapporto: r.cod_rapporto })));
  const known = new Set<string>(executors.length
    ? await trx('anagrafe').where('cod_azienda', codAzienda).whereIn('cod_anagrafe', executors).pluck('cod_anagrafe')
    : []);
  const holder = new Map(rapporti.map((r) => [r.cod_rapporto, r.cod_anagrafe]));
  const key = (rapporto: string, anagrafe: string) => `${rapporto}\u0000${anagrafe}`;
  const rolesOf = new Map<string, Role[]>();
  for (const r of roles) rolesOf.set(key(r.cod_rapporto, r.cod_anagrafe), [...(rolesOf.get(key(r.cod_rapporto, r.cod_anagrafe)) ?? []), r]);
  const holdsRole = (rapporto: string, anagrafe: string, day: string) => (rolesOf.get(key(rapporto, anagrafe)) ?? [])
    .some((role) => role.dal <= day && (role.al === null || role.al >= day));
  const errors: MovementItemError[] = [];
  const codAnagrafe = rows.map((r, index) => {
    if (r.cod_anagrafe_esecutore && !known.has(r.cod_anagrafe_esecutore)) {
      errors.push({ index, field: 'cod_anagrafe_esecutore', message: `Esecutore ${r.cod_anagrafe_esecutore} non trovato in anagrafe` });
    }
    const h = holder.get(r.cod_rapporto);
    if (h === undefined) {
      errors.push({ index, field: 'cod_rapporto', message: `Rapporto ${r.cod_rapporto} non trovato` });
      return undefined;
    }
    if (r.cod_anagrafe === undefined) return h;
    if (r.cod_anagrafe !== h && !holdsRole(r.cod_rapporto, r.cod_anagrafe, r.data_operazione)) {
      errors.push({ index, field: 'cod_anagrafe', message: `Il soggetto ${r.cod_anagrafe} non è collegato al rapporto ${r.cod_rapporto} alla data dell'operazione` });
      return undefined;
    }
    return r.cod_anagrafe;
  });
  return { codAnagrafe, errors };
}
