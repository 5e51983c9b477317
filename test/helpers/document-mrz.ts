import { checkDigit } from '../../src/domains/verifications/documents/mrz';

/**
 * A TD3 (passport) zone written by the rules of ICAO Doc 9303 part 4, with its check digits
 * computed: for records whose expiry must be in the future (the specimens of the standard expired
 * in 2012).
 */
export function passportMrz(p: { stato: string; cognome: string; nome: string; numero: string; nazionalita: string; nascita: string; sesso: 'M' | 'F'; scadenza: string }): string {
  const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);
  const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
  const l1 = pad(`P<${p.stato}${p.cognome.toUpperCase().replace(/ /g, '<')}<<${p.nome.toUpperCase().replace(/ /g, '<')}`, 44);
  const numero = pad(p.numero, 9);
  const personal = '<'.repeat(14);
  const body = `${numero}${checkDigit(numero)}${p.nazionalita}${yymmdd(p.nascita)}${checkDigit(yymmdd(p.nascita))}${p.sesso}${yymmdd(p.scadenza)}${checkDigit(yymmdd(p.scadenza))}${personal}${checkDigit(personal)}`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return `${l1}\n${body}${composite}`;
}
