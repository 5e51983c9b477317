import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ethAddressOf } from '../../src/domains/onboarding/wallet-proof';
import { ethSign } from './wallet-sign';

/**
 * IVMS101 payloads for the travel-rule tests: valid against the Global Travel Rule schema
 * (data/ivms101), with the names and addresses transliterated to ASCII as the schema's patterns
 * require. `omit` removes the data a test wants missing (art. 14 information).
 */
export interface Ivms101Options {
  originatore?: string[];
  beneficiario?: string[];
  /** Leave out the originator's address, document and customer number and birth data (art. 14(1)(d)). */
  senzaIdentificazione?: boolean;
  senzaNomeBeneficiario?: boolean;
  contoOriginatore?: string;
  contoBeneficiario?: string;
}

export function ivms101Payload(o: Ivms101Options = {}): Record<string, unknown> {
  const [nome, cognome] = o.originatore ?? ['Mario', 'Rossi'];
  const [nomeB, cognomeB] = o.beneficiario ?? ['Giulia', 'Bianchi'];
  const originator = {
    naturalPerson: {
      name: { nameIdentifier: [{ primaryIdentifier: cognome, secondaryIdentifier: nome, nameIdentifierType: 'LEGL' }] },
      ...(o.senzaIdentificazione ? {} : {
        geographicAddress: [{ addressType: 'HOME', streetName: 'Via Roma', buildingNumber: '10', postCode: '20121', townName: 'Milano', country: 'IT' }],
        nationalIdentification: { nationalIdentifier: 'CA12345AB', nationalIdentifierType: 'IDCD', countryOfIssue: 'IT' },
        customerIdentification: 'CLI 000123',
        dateAndPlaceOfBirth: { dateOfBirth: '1980-04-12', placeOfBirth: 'Torino' },
      }),
      countryOfResidence: 'IT',
    },
  };
  const beneficiary = o.senzaNomeBeneficiario
    ? { naturalPerson: { countryOfResidence: 'DE' } }
    : { naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: cognomeB, secondaryIdentifier: nomeB, nameIdentifierType: 'LEGL' }] }, countryOfResidence: 'DE' } };
  const vasp = (name: string, lei: string, country: string) => ({
    legalPerson: {
      name: { nameIdentifier: [{ legalPersonName: name, legalPersonNameIdentifierType: 'LEGL' }] },
      geographicAddress: [{ addressType: 'BIZZ', streetName: 'Corso Venezia', buildingNumber: '5', postCode: '20121', townName: 'Milano', country }],
      nationalIdentification: { nationalIdentifier: lei, nationalIdentifierType: 'LEIX' },
      countryOfRegistration: country,
    },
  });
  return {
    originator: { originatorPersons: [originator], accountNumber: [o.contoOriginatore ?? '0x1111111111111111111111111111111111111111'] },
    beneficiary: { beneficiaryPersons: [beneficiary], accountNumber: [o.contoBeneficiario ?? '0x2222222222222222222222222222222222222222'] },
    originatingVASP: { originatingVASP: vasp('Cripto Italia SpA', '815600ABCDEF12345678', 'IT') },
    beneficiaryVASP: { beneficiaryVASP: vasp('Krypto Bank AG', '529900XYZ98765432100', 'DE') },
  };
}

/** A self-hosted Ethereum wallet of the test: its address and a signer of the proof-of-control text. */
export function ethWallet(seed: number) {
  const key = new Uint8Array(32).fill(seed);
  const indirizzo = ethAddressOf(secp256k1.getPublicKey(key, false));
  return { indirizzo, sign: (message: string) => ethSign(key, message) };
}
