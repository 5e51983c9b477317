import type { Knex } from 'knex';
import { uuidv7 } from '../../lib/uuid7';
import { resolveMovementParties, type MovementItemError } from './movements.parties';
import type { ValidMovement } from './movements.schemas';

/** A movement ready to insert: validated (movementInputSchema), its subject resolved or given. */
export type MovementRow = ValidMovement;

export interface InsertedMovements {
  inserted: number;
  skipped: number;
  /** Per row, in the order given: the movement holding its external key, and whether this call wrote it (then with its subject). */
  items: { chiave_esterna: string; id: string; data_operazione: string; inserted: boolean; cod_anagrafe?: string }[];
}

/** Rows whose relationship or subject is not the tenant's: nothing was written. */
export class MovementReferenceError extends Error {
  constructor(public readonly errors: MovementItemError[]) {
    super(`${errors.length} movements refer to unknown relationships or subjects`);
    this.name = 'MovementReferenceError';
  }
}

/** The columns written from the caller's rows, with their PostgreSQL array types (one array per column for unnest). */
const COLUMNS = [
  ['id', 'uuid'], ['cod_rapporto', 'text'], ['cod_anagrafe', 'text'], ['data_operazione', 'date'], ['data_valuta', 'date'],
  ['importo', 'numeric'], ['valuta', 'text'], ['importo_eur', 'numeric'], ['segno', 'text'], ['causale', 'text'], ['canale', 'text'],
  ['contanti', 'boolean'], ['controparte_nome', 'text'], ['controparte_conto', 'text'], ['controparte_paese', 'text'], ['chiave_esterna', 'text'],
  ['ora_operazione', 'time'], ['cod_anagrafe_esecutore', 'text'],
] as const;
type Column = (typeof COLUMNS)[number][0];

const names = COLUMNS.map(([c]) => c).join(', ');
/**
 * One statement for the batch: the rows arrive as one array per column (unnest), the external keys
 * are claimed in movimenti_chiavi (ON CONFLICT DO NOTHING: a key already held, or repeated in the
 * batch, claims nothing), and only the rows whose key was claimed go into movimenti. Both tables
 * change together or not at all.
 */
const INSERT_SQL = `
  with input as (
    select * from unnest(${COLUMNS.map(([, t]) => `?::${t}[]`).join(', ')}) as t(${names})
  ), claimed as (
    insert into movimenti_chiavi (cod_azienda, chiave_esterna, movimento_id, data_operazione)
    select ?, chiave_esterna, id, data_operazione from input
    -- One order for every writer: two batches written at once claiming the same keys wait for
    -- each other instead of deadlocking.
    order by chiave_esterna
    on conflict (cod_azienda, chiave_esterna) do nothing
    returning movimento_id
  )
  insert into movimenti (cod_azienda, ${names}, import_id, created_by)
  select ?, ${COLUMNS.map(([c]) => `input.${c}`).join(', ')}, ?::uuid, ?
    from input join claimed on claimed.movimento_id = input.id
   -- Month by month, day by day: consecutive rows land in the same partition and index pages.
   order by input.data_operazione, input.id
  returning id`;

/** The select-list expression that makes sure of the partitions of these months (its one binding: movementMonths), for withTenantFirst. */
export const MOVEMENT_PARTITIONS_SQL = 'movimenti_ensure_partitions(?::date[]) as partizioni';
export const movementMonths = (rows: readonly Pick<MovementRow, 'data_operazione'>[]) => [...new Set(rows.map((r) => `${r.data_operazione.slice(0, 7)}-01`))];

/**
 * Inserts movements of one tenant in bulk (the API's POST and the import), inside the caller's
 * tenant transaction: the subjects are resolved and checked first (MovementReferenceError lists
 * every bad row, nothing written), the months the rows need get their partitions, then one
 * statement writes the batch. Idempotent by chiave_esterna: a key the tenant already holds is
 * skipped and answered with the movement holding it. No audit event: the caller writes one for
 * the request or the import run. Ids are version 7 UUIDs (time-ordered: src/lib/uuid7.ts).
 * `opts.codAnagrafe`: the subjects the caller already resolved with resolveMovementParties for
 * these rows (the import does, to report bad rows one by one), so they are not read twice.
 * `opts.partitionsEnsured`: the transaction's first statement already made sure of them (MOVEMENT_PARTITIONS_SQL).
 */
export async function insertMovements(
  trx: Knex.Transaction, codAzienda: string, actor: string, rows: readonly MovementRow[],
  opts: { importId?: string; codAnagrafe?: readonly string[]; partitionsEnsured?: boolean } = {},
): Promise<InsertedMovements> {
  if (rows.length === 0) return { inserted: 0, skipped: 0, items: [] };
  let codAnagrafe = opts.codAnagrafe;
  if (!codAnagrafe || codAnagrafe.length !== rows.length) {
    const resolved = await resolveMovementParties(trx, codAzienda, rows);
    if (resolved.errors.length) throw new MovementReferenceError(resolved.errors);
    codAnagrafe = resolved.codAnagrafe as string[];
  }

  if (!opts.partitionsEnsured) await trx.raw(`select ${MOVEMENT_PARTITIONS_SQL}`, [movementMonths(rows)]);

  const ids = rows.map(() => uuidv7());
  const value = (r: MovementRow, i: number, c: Column): unknown => {
    if (c === 'id') return ids[i];
    if (c === 'cod_anagrafe') return codAnagrafe[i];
    if (c === 'importo' || c === 'importo_eur') return r[c].toFixed(2);
    return r[c] ?? null;
  };
  // One array per column, each bound as one parameter (node-postgres sends it as a PostgreSQL array).
  const arrays = COLUMNS.map(([c]) => rows.map((r, i) => value(r, i, c)) as unknown as Knex.Value);
  const { rows: written } = await trx.raw<{ rows: { id: string }[] }>(INSERT_SQL, [...arrays, codAzienda, codAzienda, opts.importId ?? null, actor])
    // A named statement (its text never changes): parsed once per connection, its plan kept when the generic one is as good.
    .options({ name: 'movimenti-insert' });
  const fresh = new Set(written.map((w) => w.id));

  // The movements already holding the keys this call skipped (earlier calls, or earlier rows of this batch).
  const skippedKeys = [...new Set(rows.filter((_, i) => !fresh.has(ids[i]!)).map((r) => r.chiave_esterna))];
  const holders = new Map<string, { id: string; data_operazione: string }>();
  if (skippedKeys.length) {
    const held = await trx('movimenti_chiavi').where('cod_azienda', codAzienda).whereIn('chiave_esterna', skippedKeys)
      .select<{ chiave_esterna: string; movimento_id: string; data_operazione: string }[]>('chiave_esterna', 'movimento_id', trx.raw('data_operazione::text as data_operazione'));
    for (const h of held) holders.set(h.chiave_esterna, { id: h.movimento_id, data_operazione: h.data_operazione });
  }
  const items = rows.map((r, i) => (fresh.has(ids[i]!)
    ? { chiave_esterna: r.chiave_esterna, id: ids[i]!, data_operazione: r.data_operazione, inserted: true, cod_anagrafe: codAnagrafe[i]! }
    : { chiave_esterna: r.chiave_esterna, ...holders.get(r.chiave_esterna)!, inserted: false }));
  return { inserted: fresh.size, skipped: rows.length - fresh.size, items };
}
