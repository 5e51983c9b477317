import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { data } from '../../../http/format';
import { highRiskLists } from '../../cdd';
import { COUNTRY_OPTIONS } from '../../onboarding';
import { EEA, RISK_LIST_LABELS } from '../../risk';
import { sanctionedAddressesVersion, sanctionedCryptoAddresses } from '../../screening';

/**
 * The product's reference lists (docs/monitoring.md, "Named lists"): what they hold, where it
 * comes from, and the hash of that content. Each tenant keeps its own versions of them
 * (lists.repo.ts), written when the content here changes: the country lists follow the files of
 * data/reference (through the CDD and risk areas, one copy of each in the product), the sanctioned
 * addresses follow the screening area's list imports.
 */

export const TIPI_LISTA = ['paesi', 'indirizzi_crypto', 'controparti'] as const;
export type TipoLista = (typeof TIPI_LISTA)[number];

export interface ReferenceContent { codice: string; nome: string; tipo: TipoLista; fonte: string; voci: string[]; hash: string }

export const hashVoci = (voci: readonly string[]) => createHash('sha256').update([...voci].sort().join('\n')).digest('hex');

/** The tenant list every tenant has from the start: the crypto template (cripto_liste_interne) reads it. */
export const DEFAULT_TENANT_LISTS = [
  { codice: 'indirizzi_crypto_tenant', nome: 'Indirizzi cripto della lista interna', tipo: 'indirizzi_crypto' as const },
];

let countries: ReferenceContent[] | undefined;

/** The country lists of the reference data (pure: the files of data/reference through the CDD and risk areas). */
export function referenceCountryLists(): ReferenceContent[] {
  if (countries) return countries;
  const l = highRiskLists();
  const extraSee = COUNTRY_OPTIONS.map((c) => c.code).filter((c) => !EEA.has(c));
  const eu = `Reg. delegato (UE) 2016/1675 e successive modifiche, aggiornato al ${data(l.asOf.eu)} (data/reference)`;
  const fatf = `Liste GAFI/FATF, plenaria aggiornata al ${data(l.asOf.fatf)} (data/reference)`;
  const list = (codice: keyof typeof RISK_LIST_LABELS, fonte: string, voci: Iterable<string>): ReferenceContent => {
    const sorted = [...new Set(voci)].sort();
    return { codice, nome: RISK_LIST_LABELS[codice], tipo: 'paesi', fonte, voci: sorted, hash: hashVoci(sorted) };
  };
  countries = [
    list('paesi_alto_rischio', eu, l.eu),
    list('paesi_gafi_black', fatf, l.fatfBlack),
    list('paesi_gafi_grey', fatf, l.fatfGrey),
    list('paesi_see', 'Stati membri dell\'UE, Islanda, Liechtenstein, Norvegia', EEA),
    list('paesi_extra_see', 'Codici ISO 3166 fuori dallo Spazio economico europeo', extraSee),
  ];
  return countries;
}

let crypto: { versione: string; content: ReferenceContent } | undefined;
let cryptoCheckedAt = 0;
/** How long a process trusts the screening lists' version it read (real time asks for it on every event). */
const CRYPTO_RECHECK_MS = 10_000;

async function cryptoList(trx: Knex.Transaction): Promise<ReferenceContent> {
  const now = Date.now();
  if (crypto && now - cryptoCheckedAt < CRYPTO_RECHECK_MS) return crypto.content;
  const versione = await sanctionedAddressesVersion(trx);
  cryptoCheckedAt = now;
  if (crypto?.versione === versione) return crypto.content;
  const read = await sanctionedCryptoAddresses(trx);
  crypto = {
    versione: read.versione,
    content: {
      codice: 'indirizzi_crypto_sanzionati', nome: 'Indirizzi cripto sanzionati (liste di screening)', tipo: 'indirizzi_crypto',
      fonte: `Liste sanzioni in vigore nell'area screening (${read.versione})`, voci: read.indirizzi, hash: hashVoci(read.indirizzi),
    },
  };
  return crypto.content;
}

/** Every reference list with its current content. */
export async function referenceLists(trx: Knex.Transaction): Promise<ReferenceContent[]> {
  return [...referenceCountryLists(), await cryptoList(trx)];
}

/** Forgets what this process read (tests that import new sanctions lists). */
export function forgetReferenceLists(): void {
  crypto = undefined;
  cryptoCheckedAt = 0;
}
