/**
 * Reading the parties out of an IVMS101 payload (2020 field names, as the schema in data/ivms101
 * has them): what the rules check (art. 14 of Regulation (EU) 2023/1113) and what the pages
 * show. Pure functions over plain JSON; a missing branch reads as "absent", never as an error
 * (the schema has already said what is malformed).
 */

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? v as Json : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export interface Ivms101Address {
  tipo: string | null;
  righe: string[];
  paese: string | null;
}

/** One originator or beneficiary person (natural or legal), with the pointer of its node in the payload. */
export interface Ivms101Party {
  puntatore: string;
  tipo: 'person' | 'company' | null;
  nome: string | null;
  /** Every name it goes by (legal, short, trading, alias, local script): all of them are screened. */
  nomi: string[];
  indirizzi: Ivms101Address[];
  documento: { numero: string; tipo: string | null; paese: string | null } | null;
  codiceCliente: string | null;
  nascita: { data: string | null; luogo: string | null } | null;
  paeseResidenza: string | null;
  paeseRegistrazione: string | null;
}

function naturalNames(name: Json | undefined): string[] {
  const ids = [...arr(name?.nameIdentifier), ...arr(name?.localNameIdentifier), ...arr(name?.phoneticNameIdentifier)].map(obj);
  // IVMS101: primaryIdentifier is the surname (or the single name), secondaryIdentifier the given names.
  const legal = ids.filter((i) => i?.nameIdentifierType === 'LEGL');
  const ordered = [...legal, ...ids.filter((i) => !legal.includes(i))];
  return ordered.map((i) => [str(i?.secondaryIdentifier), str(i?.primaryIdentifier)].filter(Boolean).join(' ')).filter((n) => n.length > 0);
}

function legalNames(name: Json | undefined): string[] {
  const ids = [...arr(name?.nameIdentifier), ...arr(name?.localNameIdentifier), ...arr(name?.phoneticNameIdentifier)].map(obj);
  const legal = ids.filter((i) => i?.legalPersonNameIdentifierType === 'LEGL');
  return [...legal, ...ids.filter((i) => !legal.includes(i))].map((i) => str(i?.legalPersonName)).filter((n): n is string => !!n);
}

function addresses(list: unknown): Ivms101Address[] {
  return arr(list).map(obj).filter((a): a is Json => !!a).map((a) => {
    const street = [str(a.streetName), str(a.buildingNumber), str(a.buildingName)].filter(Boolean).join(' ');
    const town = [str(a.postCode), str(a.townName), str(a.countrySubDivision)].filter(Boolean).join(' ');
    const righe = [...arr(a.addressLine).map(str).filter((x): x is string => !!x), street, str(a.postBox) ? `Casella postale ${str(a.postBox)}` : '', town].filter((x) => x.length > 0);
    return { tipo: str(a.addressType), righe, paese: str(a.country) };
  });
}

function party(node: unknown, pointer: string): Ivms101Party {
  const p = obj(node);
  const natural = obj(p?.naturalPerson);
  const legal = obj(p?.legalPerson);
  const id = obj((natural ?? legal)?.nationalIdentification);
  const birth = obj(natural?.dateAndPlaceOfBirth);
  const nomi = natural ? naturalNames(obj(natural.name)) : legal ? legalNames(obj(legal.name)) : [];
  return {
    puntatore: natural ? `${pointer}/naturalPerson` : legal ? `${pointer}/legalPerson` : pointer,
    tipo: natural ? 'person' : legal ? 'company' : null,
    nome: nomi[0] ?? null,
    nomi: [...new Set(nomi)],
    indirizzi: addresses((natural ?? legal)?.geographicAddress),
    documento: str(id?.nationalIdentifier) ? { numero: str(id?.nationalIdentifier)!, tipo: str(id?.nationalIdentifierType), paese: str(id?.countryOfIssue) } : null,
    codiceCliente: str(natural?.customerIdentification) ?? str(legal?.customerNumber),
    nascita: birth ? { data: str(birth.dateOfBirth), luogo: str(birth.placeOfBirth) } : null,
    paeseResidenza: str(natural?.countryOfResidence),
    paeseRegistrazione: str(legal?.countryOfRegistration),
  };
}

export interface Ivms101View {
  originatori: Ivms101Party[];
  contiOriginatore: string[];
  beneficiari: Ivms101Party[];
  contiBeneficiario: string[];
  vaspOriginatore: Ivms101Party | null;
  vaspBeneficiario: Ivms101Party | null;
  intermediari: Ivms101Party[];
}

/** The payload's parties, in the order the standard lists them. */
export function readIvms101(payload: unknown): Ivms101View {
  const p = obj(payload) ?? {};
  const originator = obj(p.originator);
  const beneficiary = obj(p.beneficiary);
  const vasp = (key: 'originatingVASP' | 'beneficiaryVASP') => {
    // IVMS101 nests the person under its own name (originatingVASP.originatingVASP); some senders put it one level up.
    const nested = obj(obj(p[key])?.[key]);
    if (nested) return party(nested, `/${key}/${key}`);
    const flat = obj(p[key]);
    return flat && (flat.legalPerson || flat.naturalPerson) ? party(flat, `/${key}`) : null;
  };
  return {
    originatori: arr(originator?.originatorPersons).map((x, i) => party(x, `/originator/originatorPersons/${i}`)),
    contiOriginatore: arr(originator?.accountNumber).map(str).filter((x): x is string => !!x),
    beneficiari: arr(beneficiary?.beneficiaryPersons).map((x, i) => party(x, `/beneficiary/beneficiaryPersons/${i}`)),
    contiBeneficiario: arr(beneficiary?.accountNumber).map(str).filter((x): x is string => !!x),
    vaspOriginatore: vasp('originatingVASP'),
    vaspBeneficiario: vasp('beneficiaryVASP'),
    intermediari: arr(p.transferPath).map((x, i) => party(obj(x)?.intermediaryVASP, `/transferPath/${i}/intermediaryVASP`)),
  };
}
