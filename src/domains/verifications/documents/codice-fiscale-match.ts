import { decodeOmocodia, isValidCodiceFiscalePersona, normaliseTaxId } from '../../records';

/**
 * Whether a person's codice fiscale (D.M. 23/12/1976, D.P.R. 605/1973) fits their surname, name,
 * birth date and sex: the code is derived from them, so a mismatch is a typing error, another
 * person's code, or a false identity. The place of birth (4 characters) is not checked: the
 * cadastral codes are not in the records.
 */

const MONTH_LETTERS = 'ABCDEHLMPRST';
const VOWELS = new Set(['A', 'E', 'I', 'O', 'U']);

/** Upper-case letters only: accents dropped (À → A), apostrophes, spaces and dashes removed. */
const lettersOf = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z]/g, '');

const split = (s: string) => {
  const l = lettersOf(s).split('');
  return { consonants: l.filter((c) => !VOWELS.has(c)), vowels: l.filter((c) => VOWELS.has(c)) };
};

/** The three characters of the surname: its consonants, then its vowels, then X. */
export function surnameCode(cognome: string): string {
  const { consonants, vowels } = split(cognome);
  return [...consonants, ...vowels, 'X', 'X', 'X'].slice(0, 3).join('');
}

/** The three characters of the name: with four consonants or more the 1st, 3rd and 4th; else as the surname. */
export function nameCode(nome: string): string {
  const { consonants, vowels } = split(nome);
  if (consonants.length >= 4) return consonants[0]! + consonants[2]! + consonants[3]!;
  return [...consonants, ...vowels, 'X', 'X', 'X'].slice(0, 3).join('');
}

/** What a code says of its holder: birth date (the century is not in the code) and sex. */
export interface CodiceFiscaleData { cognome: string; nome: string; anno: string; mese: number; giorno: number; sesso: 'M' | 'F' }

export function readCodiceFiscale(cf: string): CodiceFiscaleData | null {
  const code = normaliseTaxId(cf);
  if (code.length !== 16 || !isValidCodiceFiscalePersona(code)) return null;
  const plain = decodeOmocodia(code);
  const day = Number(plain.slice(9, 11));
  return {
    cognome: plain.slice(0, 3), nome: plain.slice(3, 6), anno: plain.slice(6, 8), mese: MONTH_LETTERS.indexOf(plain[8]!) + 1,
    giorno: day > 40 ? day - 40 : day, sesso: day > 40 ? 'F' : 'M',
  };
}

export interface PersonForCf { cognome?: string | null; nome?: string | null; data_nascita?: string | null; sesso?: 'M' | 'F' | 'X' | null }

/** One difference between the code and the person: the field, what the code says, what the record says. */
export interface CfMismatch { campo: 'codice_fiscale' | 'cognome' | 'nome' | 'data_nascita' | 'sesso'; atteso: string; trovato: string }

/**
 * The differences between a personal codice fiscale and the person (empty: consistent). Only the
 * fields the person has are compared; an invalid code is one difference on the code itself.
 */
export function codiceFiscaleMismatches(cf: string, p: PersonForCf): CfMismatch[] {
  const d = readCodiceFiscale(cf);
  if (!d) return [{ campo: 'codice_fiscale', atteso: 'un codice fiscale di persona fisica valido', trovato: normaliseTaxId(cf) }];
  const out: CfMismatch[] = [];
  if (p.cognome && surnameCode(p.cognome) !== d.cognome) out.push({ campo: 'cognome', atteso: d.cognome, trovato: `${surnameCode(p.cognome)} (${p.cognome})` });
  if (p.nome && nameCode(p.nome) !== d.nome) out.push({ campo: 'nome', atteso: d.nome, trovato: `${nameCode(p.nome)} (${p.nome})` });
  if (p.data_nascita && /^\d{4}-\d{2}-\d{2}$/.test(p.data_nascita)) {
    const [y, m, g] = p.data_nascita.split('-');
    if (y!.slice(2) !== d.anno || Number(m) !== d.mese || Number(g) !== d.giorno) {
      out.push({ campo: 'data_nascita', atteso: `${String(d.giorno).padStart(2, '0')}/${String(d.mese).padStart(2, '0')}/..${d.anno}`, trovato: `${g}/${m}/${y}` });
    }
  }
  if (p.sesso && p.sesso !== 'X' && p.sesso !== d.sesso) out.push({ campo: 'sesso', atteso: d.sesso, trovato: p.sesso });
  return out;
}
