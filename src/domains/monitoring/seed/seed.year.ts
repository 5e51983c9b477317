import { highRiskLists } from '../../cdd';
import { sanctionedAddressesInData } from '../../screening';
import { pianoAnno, type IndirizzoCripto, type PianoAnno } from '../generator';
import type { SeedJobRow } from './seed.repo';

/**
 * The year a seed job generates: the generator with the job's seed, size and period, the EU
 * high-risk list of the reference data (the monitoring list `paesi_alto_rischio`), every high-risk
 * list kept away from ordinary counterparties, and the sanctioned addresses of the sanctions data
 * (what the screening area imports and monitoring reads as `indirizzi_crypto_sanzionati`). The same
 * job always gives the same year, so each step of the workflow builds the customers it needs again.
 */

/** KYT events name addresses of 16 to 128 characters among letters, digits and `: _ -`. */
const KYT_ADDRESS = /^[A-Za-z0-9:_-]{16,128}$/;

let sanctioned: IndirizzoCripto[] | undefined;

export function seedYear(job: Pick<SeedJobRow, 'clienti' | 'seed' | 'mesi' | 'dal'>): PianoAnno {
  const l = highRiskLists();
  sanctioned ??= sanctionedAddressesInData().filter((a) => KYT_ADDRESS.test(a.indirizzo));
  if (!sanctioned.length) throw new Error('Dati delle sanzioni non trovati: servono gli indirizzi cripto sanzionati (SANCTIONS_DATA_DIR)');
  return pianoAnno({
    clienti: job.clienti, seed: job.seed, mesi: job.mesi, inizio: job.dal,
    paesi_alto_rischio: [...l.eu], paesi_da_evitare: [...l.eu, ...l.fatfBlack, ...l.fatfGrey], indirizzi_sanzionati: sanctioned,
  });
}

/** The code prefix of a job's records, so two seeds in one tenant never share an external code. */
export const codePrefix = (seedId: string) => `D${seedId.replaceAll('-', '').slice(0, 8)}-`;
