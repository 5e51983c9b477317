import type { CryptoAddress, Identifier, NameAlias } from '../types';
import { countryCode } from './countries';
import { parseLooseDates } from './dates';

export interface ParsedRemarks {
  birthDates: string[];
  birthPlaces: string[];
  nationalities: string[];
  gender?: 'male' | 'female';
  identifiers: Identifier[];
  cryptoAddresses: CryptoAddress[];
  aliases: NameAlias[];
  linkedTo: string[];
}

/** Segment prefixes that carry an identifier number: "<type> <value> (<country>)". */
const ID_TYPE = new RegExp(
  '^(?<type>(?:[A-Za-z][\\w\'./&-]*\\s+){0,6}?(?:No\\.?|Number|#|ID|Passport|IMO|MMSI|C\\.U\\.R\\.P\\.|R\\.F\\.C\\.|' +
  'D\\.N\\.I\\.|SWIFT/BIC|BIK \\(RU\\)|\\(MSN\\)|\\(USCC\\)|\\(CBLS\\)|SSN|Identification|Tail Number|' +
  'L/N or S/N or F/N\\)|Cedula|Matricula Mercantil No|License))\\s+(?<value>[A-Za-z0-9][^();]*?)' +
  '(?:\\s*\\((?<country>[^)]+)\\))?(?:\\s+(?:issued|expires|valid|alt\\.).*)?\\.?$',
);

const NOT_ID = /^(Phone|Telephone|Fax|Email|Website|Organization Established|Aircraft Model|Aircraft Manufacture Date|Listing Date|Effective Date|Executive Order|Linked To|Additional Sanctions|Secondary sanctions|Transactions Prohibited|Target Type|Organization Type|CAATSA|Member of|For more)/i;

/**
 * Splits OFAC remarks ("DOB 29 Jun 1983; POB ...; nationality Russia; Passport 6201 (Russia);
 * a.k.a. 'X'; Digital Currency Address - XBT 1abc...") into structured features.
 */
export function parseOfacRemarks(remarks: string | undefined | null): ParsedRemarks {
  const out: ParsedRemarks = {
    birthDates: [], birthPlaces: [], nationalities: [], identifiers: [], cryptoAddresses: [], aliases: [], linkedTo: [],
  };
  if (!remarks) return out;
  for (const raw of remarks.split(/;\s+/)) {
    const seg = raw.trim().replace(/^alt\.\s+/i, '').replace(/\.$/, '').trim();
    if (!seg) continue;
    let m: RegExpMatchArray | null;
    if ((m = seg.match(/^DOB\s+(.+)$/))) out.birthDates.push(...parseLooseDates(m[1]));
    else if ((m = seg.match(/^POB\s+(.+)$/))) out.birthPlaces.push(m[1]!);
    else if ((m = seg.match(/^(?:nationality|citizen)\s+(.+)$/i))) {
      const c = countryCode(m[1]);
      if (c) out.nationalities.push(c);
    } else if ((m = seg.match(/^Gender\s+(Male|Female)/i))) out.gender = m[1]!.toLowerCase() as 'male' | 'female';
    else if ((m = seg.match(/^Digital Currency Address\s*-\s*([A-Za-z0-9]+)\s+([A-Za-z0-9:]+)/))) {
      out.cryptoAddresses.push({ currency: m[1]!.toUpperCase(), address: m[2]! });
    } else if ((m = seg.match(/^([afn])\.k\.a\.,?\s+'(.+?)'?$/i))) {
      out.aliases.push({ name: m[2]!.replace(/'$/, ''), type: `${m[1]!.toLowerCase()}ka`, quality: 'weak' });
    } else if ((m = seg.match(/^Linked To:\s*(.+)$/i))) out.linkedTo.push(m[1]!);
    else if (!NOT_ID.test(seg) && (m = seg.match(ID_TYPE))) {
      const g = m.groups!;
      let type = g.type!.trim();
      let value = g.value!.trim();
      // The lazy type pattern can stop before a trailing "No." / "IMO": move it back into the type.
      let lead: RegExpMatchArray | null;
      while ((lead = value.match(/^(No\.?|#|Number|IMO)\s+(?=\S*\d)/))) {
        type = `${type} ${lead[1]}`;
        value = value.slice(lead[0].length);
      }
      if (/\bIMO$/.test(type)) type = 'IMO';
      if (/\d/.test(value) || /SWIFT/.test(type)) {
        out.identifiers.push({ type, value, ...(g.country ? { country: countryCode(g.country) } : {}) });
      }
    }
  }
  return out;
}
