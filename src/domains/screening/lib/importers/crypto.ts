import { readFileSync } from 'node:fs';
import { emptyEntry, type CryptoAddress, type ListEntry } from '../types';

/** ETH-family hex addresses are EIP-55 mixed case, so they compare lower-cased; base58/bech32 are case-significant. */
export function canonicalWalletAddress(address: string): string {
  const a = address.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(a) ? a.toLowerCase() : a;
}

/** Reads "currency<TAB>address" lines (comments start with #). */
export function parseCryptoUnion(text: string): CryptoAddress[] {
  const out: CryptoAddress[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [currency, address] = line.split('\t').map((s) => s.trim());
    if (currency && address) out.push({ currency: currency.toUpperCase(), address });
  }
  return out;
}

export interface CryptoOwnerRow {
  source: string;
  entNum: string;
  name: string;
  currency: string;
  address: string;
  truncated: boolean;
}

export function parseCryptoOwners(text: string): CryptoOwnerRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const header = lines.shift()?.split('\t') ?? [];
  const idx = (h: string) => header.indexOf(h);
  return lines.map((l) => {
    const c = l.split('\t');
    return {
      source: c[idx('source')] ?? '', entNum: c[idx('ent_num')] ?? '', name: c[idx('sdn_name')] ?? '',
      currency: (c[idx('currency')] ?? '').toUpperCase(), address: c[idx('address')] ?? '',
      truncated: !!c[idx('looks_truncated')]?.trim(),
    };
  });
}

/**
 * One list entry per OFAC owner, holding every address of the union file; addresses the owner
 * table does not attribute go to a catch-all entry so a wallet hit is never lost.
 */
export function cryptoEntries(unionText: string, ownersText: string, list = 'us_ofac_crypto'): ListEntry[] {
  const union = parseCryptoUnion(unionText);
  const owners = parseCryptoOwners(ownersText).filter((r) => !r.truncated);
  const ownerOf = new Map<string, CryptoOwnerRow>();
  for (const r of owners) ownerOf.set(canonicalWalletAddress(r.address), r);
  const byOwner = new Map<string, ListEntry>();
  const seen = new Set<string>();
  for (const a of union) {
    const key = canonicalWalletAddress(a.address);
    // The same address can be listed under several currencies (USDT on TRX / ETH): keep each pair.
    if (seen.has(`${a.currency} ${key}`)) continue;
    seen.add(`${a.currency} ${key}`);
    const owner = ownerOf.get(key);
    const id = owner ? `ofac:${owner.entNum}` : 'ofac-crypto:unattributed';
    let e = byOwner.get(id);
    if (!e) {
      e = emptyEntry(list, id, 'Unknown', owner?.name ?? 'Unattributed OFAC digital currency address');
      byOwner.set(id, e);
    }
    e.cryptoAddresses.push({ currency: a.currency, address: a.address });
  }
  return [...byOwner.values()];
}

export function importCryptoDir(dir: string, list?: string): ListEntry[] {
  return cryptoEntries(
    readFileSync(`${dir}/ofac_crypto_addresses_union.txt`, 'utf8'),
    readFileSync(`${dir}/sdn_digital_currency_addresses.tsv`, 'utf8'),
    list,
  );
}
