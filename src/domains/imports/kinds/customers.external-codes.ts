import type { Knex } from 'knex';
import { dedupeKey, type CustomerFields } from '../../records';

interface Holder { cod_anagrafe: string; codice_esterno: string | null }

/**
 * The external codes of a batch of customer rows, checked before any is written (two queries for
 * the batch): a code another subject holds, or a customer already known by its tax id with another
 * code, is the row's error (the records area's createOrMatchCustomer would refuse it with a 409,
 * which would fail the whole batch). What the batch records is remembered, so two rows of one file
 * cannot give one code to two people either.
 */
export async function externalCodeConflicts(trx: Knex.Transaction, codAzienda: string, rows: readonly CustomerFields[]) {
  const codes = [...new Set(rows.flatMap((r) => (r.codice_esterno ? [r.codice_esterno] : [])))];
  const keys = [...new Set(rows.flatMap((r) => { const k = r.codice_esterno ? dedupeKey(r) : null; return k ? [k] : []; }))];
  const found = codes.length ? await trx('anagrafe').where('cod_azienda', codAzienda)
    .where((w) => w.whereIn('codice_esterno', codes).orWhereIn('chiave_fiscale', keys))
    .select<(Holder & { chiave_fiscale: string | null })[]>('cod_anagrafe', 'codice_esterno', 'chiave_fiscale') : [];
  const byCode = new Map(found.filter((f) => f.codice_esterno).map((f) => [f.codice_esterno!, f.cod_anagrafe]));
  const byKey = new Map<string, Holder>(found.filter((f) => f.chiave_fiscale).map((f) => [f.chiave_fiscale!, f]));
  return {
    /** The Italian message when the row's code cannot be its customer's, else null. */
    check(row: CustomerFields): string | null {
      if (!row.codice_esterno) return null;
      const known = byKey.get(dedupeKey(row) ?? '');
      const holder = byCode.get(row.codice_esterno);
      if (holder && holder !== known?.cod_anagrafe) {
        return `Il codice esterno ${row.codice_esterno} è già del soggetto ${holder}, che ha un altro identificativo fiscale`;
      }
      if (known?.codice_esterno && known.codice_esterno !== row.codice_esterno) {
        return `Il cliente con questo identificativo fiscale (${known.cod_anagrafe}) ha già il codice esterno ${known.codice_esterno}`;
      }
      return null;
    },
    /** The row was written (created, or matched and given its code): later rows of the batch see it. */
    recorded(row: CustomerFields, codAnagrafe: string): void {
      const key = dedupeKey(row);
      const code = byKey.get(key ?? '')?.codice_esterno ?? row.codice_esterno ?? null;
      if (key) byKey.set(key, { cod_anagrafe: codAnagrafe, codice_esterno: code });
      if (code) byCode.set(code, codAnagrafe);
    },
  };
}
