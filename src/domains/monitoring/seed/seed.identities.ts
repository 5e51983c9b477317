import { codiceFiscaleCheckChar, partitaIvaCheckDigit } from '../../records';
import { COMUNI } from '../generator/generator.names';
import type { Casuale } from '../generator/generator.random';
import type { ClienteGenerato } from '../generator';

/**
 * Tax identities for the generated customers, valid as the records area checks them (the import
 * refuses a row without one): a person's codice fiscale from the name, birth date and sex, with its
 * check letter; a company's partita IVA with its check digit. Unique within a seed.
 */

const MONTHS = 'ABCDEHLMPRST';
const letters = (s: string) => s.toUpperCase().normalize('NFD').replace(/[^A-Z]/g, '');
const consonants = (s: string) => letters(s).replace(/[AEIOU]/g, '');
const vowels = (s: string) => letters(s).replace(/[^AEIOU]/g, '');

function surnameCode(s: string): string {
  return `${consonants(s)}${vowels(s)}XXX`.slice(0, 3);
}

function nameCode(s: string): string {
  const c = consonants(s);
  if (c.length >= 4) return `${c[0]}${c[2]}${c[3]}`;
  return `${c}${vowels(s)}XXX`.slice(0, 3);
}

export function codiceFiscale(p: { nome: string; cognome: string; nascita: string; sesso: 'M' | 'F'; comune: string }): string {
  const day = Number(p.nascita.slice(8, 10)) + (p.sesso === 'F' ? 40 : 0);
  const first15 = `${surnameCode(p.cognome)}${nameCode(p.nome)}${p.nascita.slice(2, 4)}${MONTHS[Number(p.nascita.slice(5, 7)) - 1]}${String(day).padStart(2, '0')}${p.comune}`;
  return `${first15}${codiceFiscaleCheckChar(first15)}`;
}

export function partitaIva(rng: Casuale): string {
  const first10 = `${String(rng.int(1, 9_999_999)).padStart(7, '0')}${String(rng.int(1, 100)).padStart(3, '0')}`;
  return `${first10}${partitaIvaCheckDigit(first10)}`;
}

export interface Identita { codice_fiscale: string | null; partita_iva: string | null }

/** The customer's identity; `used` holds those given so far in this seed (a clash takes another birth place, or another number). */
export function identityOf(rng: Casuale, c: ClienteGenerato, used: Set<string>): Identita {
  const a = c.anagrafica;
  let cf: string | null = null;
  if (a.nome && a.cognome) {
    const nascita = c.profilo.data_nascita ?? `19${rng.int(50, 99)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    for (let k = 0; !cf || used.has(cf); k++) {
      const comune = k === 0 ? COMUNI[rng.int(0, COMUNI.length - 1)]! : `${'ABCDEFGHILM'[rng.int(0, 10)]}${String(rng.int(100, 999))}`;
      cf = codiceFiscale({ nome: a.nome, cognome: a.cognome, nascita, sesso: a.sesso ?? 'M', comune });
    }
    used.add(cf);
  }
  let piva: string | null = null;
  if (c.profilo.tipo_soggetto !== 'persona_fisica') {
    do piva = partitaIva(rng); while (used.has(piva));
    used.add(piva);
  }
  return { codice_fiscale: cf ?? piva, partita_iva: piva };
}
