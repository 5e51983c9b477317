import type { Knex } from 'knex';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalWalletAddress, parseCryptoUnion } from './lib/importers/crypto';
import { defaultSanctionsDir } from './lib/load-all';

/**
 * The sanctioned crypto addresses of the lists in force, as one named list for other areas
 * (transaction monitoring reads it as `indirizzi_crypto_sanzionati`, docs/monitoring.md). Its
 * version names the list versions it was read from, so a caller can tell when it changed with
 * `sanctionedAddressesVersion` (one small query) before reading the addresses again.
 */

/** `<list>#<version id>` of every list in force, joined: changes whenever a list is imported again. */
export async function sanctionedAddressesVersion(trx: Knex | Knex.Transaction): Promise<string> {
  const { rows } = await trx.raw<{ rows: { list_name: string; id: string }[] }>(
    'select distinct on (list_name) list_name, id from screening_list_versions order by list_name, id desc');
  return rows.map((r) => `${r.list_name}#${r.id}`).sort().join(',') || 'nessuna';
}

/** Every address of an entry in force (canonical: ETH-family hex lower-cased, others as listed), with the version read. */
export async function sanctionedCryptoAddresses(trx: Knex | Knex.Transaction): Promise<{ versione: string; indirizzi: string[] }> {
  const versione = await sanctionedAddressesVersion(trx);
  const { rows } = await trx.raw<{ rows: { address: string }[] }>(`
    select distinct w->>'address' as address
      from screening_list_entries e
      join (select distinct on (list_name) id, list_name from screening_list_versions order by list_name, id desc) v
        on v.list_name = e.list_name and v.id = e.last_version_id
      cross join lateral jsonb_array_elements(coalesce(e.data->'cryptoAddresses', '[]'::jsonb)) w
     where jsonb_typeof(e.data->'cryptoAddresses') = 'array' and jsonb_array_length(e.data->'cryptoAddresses') > 0`);
  const indirizzi = [...new Set(rows.map((r) => r.address).filter(Boolean).map(canonicalWalletAddress))].sort();
  return { versione, indirizzi };
}

/**
 * The sanctioned addresses of the sanctions data the list imports read (crypto/ofac_crypto_addresses_union.txt,
 * with their currency), for whoever needs them before the first import has run (the demo year's seed).
 */
export function sanctionedAddressesInData(dir = defaultSanctionsDir()): { asset: string; indirizzo: string }[] {
  const file = join(dir, 'crypto', 'ofac_crypto_addresses_union.txt');
  if (!existsSync(file)) return [];
  return parseCryptoUnion(readFileSync(file, 'utf8')).map((a) => ({ asset: a.currency, indirizzo: a.address }));
}
