import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListeRiferimento } from '../../src/domains/monitoring/engine';
import type { IndirizzoCripto } from '../../src/domains/monitoring/generator';
import { referenceCountryLists } from '../../src/domains/monitoring/lists/lists.reference';
import { canonicalWalletAddress, parseCryptoUnion } from '../../src/domains/screening/lib/importers/crypto';
import { defaultSanctionsDir } from '../../src/domains/screening/lib/load-all';

/**
 * The reference data of the quality bench, in memory and without a database, from the same sources
 * the product reads: the country lists of data/reference (as the monitoring area's named lists hold
 * them) and the sanctioned crypto addresses of the sanctions data (../shared/data/sanctions/crypto,
 * what the screening area imports and monitoring reads as `indirizzi_crypto_sanzionati`).
 */
export interface RiferimentiQualita {
  /** The named lists as the engine reads them (the tenant list is added per generated year). */
  liste: Record<string, { versione: string; voci: string[] }>;
  /** The EU high-risk list: the countries the generator plants. */
  paesi_alto_rischio: string[];
  /** Every high-risk list: ordinary counterparties avoid them all. */
  paesi_da_evitare: string[];
  indirizzi_sanzionati: IndirizzoCripto[];
}

export function qualityReference(sanctionsDir = defaultSanctionsDir()): RiferimentiQualita {
  const liste: RiferimentiQualita['liste'] = {};
  for (const l of referenceCountryLists()) liste[l.codice] = { versione: l.hash.slice(0, 12), voci: l.voci };
  const union = parseCryptoUnion(readFileSync(join(sanctionsDir, 'crypto', 'ofac_crypto_addresses_union.txt'), 'utf8'));
  const indirizzi = [...new Set(union.map((a) => canonicalWalletAddress(a.address)))].sort();
  liste['indirizzi_crypto_sanzionati'] = { versione: `ofac-crypto-${indirizzi.length}`, voci: indirizzi };
  return {
    liste,
    paesi_alto_rischio: liste['paesi_alto_rischio']!.voci,
    paesi_da_evitare: [...new Set(['paesi_alto_rischio', 'paesi_gafi_black', 'paesi_gafi_grey'].flatMap((n) => liste[n]?.voci ?? []))],
    indirizzi_sanzionati: union.map((a) => ({ asset: a.currency, indirizzo: a.address })),
  };
}

/** The named lists of one generated year: the reference ones plus the tenant's own crypto list. */
export function listsFor(ref: RiferimentiQualita, tenant: readonly string[]): ListeRiferimento {
  const out: Record<string, { versione: string; voci: ReadonlySet<string> }> = {};
  for (const [name, l] of Object.entries(ref.liste)) out[name] = { versione: l.versione, voci: new Set(l.voci) };
  out['indirizzi_crypto_tenant'] = { versione: `generata-${tenant.length}`, voci: new Set(tenant.map(canonicalWalletAddress)) };
  return out;
}
