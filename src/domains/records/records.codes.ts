import type { Knex } from 'knex';

/**
 * The series of per-tenant progressive codes (codici_progressivi): customers (ANA-000001),
 * relationships (RAP-000001), and the records of the processes built on them.
 */
export type Serie = 'ANA' | 'RAP' | 'CDD' | 'EDD' | 'IMP' | 'QST' | 'VAL' | 'KYC' | 'KYB' | 'CHK' | 'DOC' | 'TRR';

/** The next progressive code of a series for the tenant (ANA-000001), atomically under concurrent writers. */
export async function nextCode(trx: Knex.Transaction, codAzienda: string, serie: Serie): Promise<string> {
  const r = await trx.raw(
    `insert into codici_progressivi (cod_azienda, serie, ultimo) values (?, ?, 1)
     on conflict (cod_azienda, serie) do update set ultimo = codici_progressivi.ultimo + 1 returning ultimo`,
    [codAzienda, serie],
  );
  return `${serie}-${String(r.rows[0].ultimo).padStart(6, '0')}`;
}
