import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadJurisdiction, renderAndValidate, reportOf, type LoadedJurisdiction } from '../../src/domains/filing';
import { genderOf, goamlName, sosToGoaml, type GoamlReporter, type SosForGoaml } from '../../src/domains/sos/export/sos.goaml-mapping';

const GOAML = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'goaml');
const reporter: GoamlReporter = { rentityId: '101', person: { first_name: 'Sara', last_name: 'Bianchi' }, currency: 'EUR', country: 'IT', location: 'Banca Esempio, sede di Milano' };

/** A transmitted report as the SOS area reads it: two operations (a transfer out, cash in), the customer with a document, a counterparty. */
const sos = (over: Partial<SosForGoaml> = {}): SosForGoaml => ({
  cod_segnalazione: 'SOS-000001', oggetto: 'Bonifici ricorrenti verso un paese terzo',
  descrizione: 'Bonifici mensili verso una società estera senza giustificazione economica documentata.',
  protocollo_uif: 'UIF-2026-0001', trasmessa_at: '2026-11-28T10:00:00.000Z',
  operazioni: [
    { movimento_id: '0b9d2c5e-1c1f-4c55-9a57-6f1d2a3b4c5d', data_operazione: '2026-10-01', importo: 9800, valuta: 'EUR', segno: 'uscita', causale: 'Bonifico estero', descrizione: 'online' },
    { movimento_id: null, data_operazione: '2026-10-02', importo: '4500.50', valuta: 'USD', segno: 'entrata', causale: null, descrizione: 'sportello, contanti' },
  ],
  soggetti: [
    {
      nominativo: 'Giulia Verdi', codice_fiscale: 'VRDGLI80A41H501U', ruolo: 'cliente',
      anagrafe: {
        tipo_soggetto: 'persona_fisica', nome: 'Giulia', cognome: 'Verdi', data_nascita: '1980-01-01', nazionalita: 'IT', paese_residenza: 'IT',
        telefono: '+39 333 1234567', attivita: 'Impiegata',
        documenti: [{ tipo: 'passaporto', numero: 'YA1234567', paese_rilascio: 'IT', data_rilascio: '2020-01-15', data_scadenza: '2030-01-14' }],
      },
    },
    { nominativo: 'Acme Trading LLC', codice_fiscale: null, ruolo: 'controparte' },
    { nominativo: 'Marco Neri', codice_fiscale: null, ruolo: 'esecutore' },
  ],
  fenomeni: [{ codice: 'F02', descrizione: 'Frode IVA intracomunitaria' }],
  indicatori: [{ indicatore: 11, sottoindice: '11.1' }],
  ...over,
});

const FILING_ID = '7d1c2a4e-5f60-4b7a-8c9d-0e1f2a3b4c5d';

describe('SOS → goAML STR mapping (ae-goaml-5.0.2)', function () {
  this.timeout(60_000);
  let j: LoadedJurisdiction;
  before(async () => { j = await loadJurisdiction(GOAML, 'ae-goaml-5.0.2'); });

  it('renders a transmitted report as an STR that libxml2 finds valid against the goAML XSD, with no business-rule finding', async () => {
    const content = sosToGoaml(sos(), reporter, ['STRUC']);
    const verdict = await renderAndValidate(j, reportOf({ id: FILING_ID, report_code: 'STR', content }, j));
    assert.deepEqual(verdict.findings, []);
    assert.equal(verdict.valid, true);
    const xml = verdict.xml;
    // operations → transactions, each on the side the money moves, the customer as the entity's own client
    assert.equal(xml.match(/<transaction>/g)?.length, 2);
    assert.match(xml, /<transactionnumber>SOS-000001-1<\/transactionnumber>[\s\S]*<t_from_my_client>[\s\S]*<last_name>Verdi<\/last_name>[\s\S]*<t_to>[\s\S]*<name>Acme Trading LLC<\/name>/);
    assert.match(xml, /<transactionnumber>SOS-000001-2<\/transactionnumber>[\s\S]*<transmode_code>OCT<\/transmode_code>[\s\S]*<from_funds_code>CASH<\/from_funds_code>[\s\S]*<t_to_my_client>/);
    assert.match(xml, /<amount_local>4500.50<\/amount_local>/);
    assert.match(xml, /importo in USD · eseguita da Marco Neri/);
    // subjects → parties with what the register knows
    assert.match(xml, /<gender>F<\/gender>[\s\S]*<type>PASSP<\/type>[\s\S]*<tax_number>VRDGLI80A41H501U<\/tax_number>/);
    // description, phenomena, indicators → reason; the transmission → action; the FIU's indicator codes as chosen
    assert.match(xml, /<reason>Bonifici mensili[\s\S]*Fenomeni UIF: F02 \(Frode IVA intracomunitaria\)[\s\S]*Indicatori di anomalia UIF: 11 \(11.1\)/);
    assert.match(xml, /<action>Segnalazione SOS-000001 trasmessa alla UIF con protocollo UIF-2026-0001 il 2026-11-28<\/action>/);
    assert.match(xml, /<report_indicators>\s*<indicator>STRUC<\/indicator>/);
  });

  it('leaves what the report does not know to the validation: no indicator, no entity id, an unknown counterparty, a customer without phone', async () => {
    const bare = sos({ soggetti: [{ nominativo: 'Giulia Verdi', codice_fiscale: null, ruolo: 'cliente', anagrafe: null }] });
    const content = sosToGoaml(bare, { ...reporter, rentityId: null }, []);
    const verdict = await renderAndValidate(j, reportOf({ id: FILING_ID, report_code: 'STR', content }, j));
    assert.equal(verdict.valid, false);
    const codes = new Set(verdict.findings.map((f) => f.code));
    assert.ok(codes.has('GOAML_NO_INDICATORS'), JSON.stringify(verdict.findings));
    assert.ok(verdict.findings.some((f) => f.code === 'GOAML_FIELD_REQUIRED' && f.path === 'rentity_id'), JSON.stringify(verdict.findings));
    assert.match(verdict.xml, /<to_entity>\s*<name>Sconosciuto<\/name>|<to_person>\s*<first_name>-<\/first_name>/);
  });

  it('writes names as goAML admits them: accents dropped, other signs as spaces', () => {
    assert.equal(goamlName('Niccolò D\'Agostino'), 'Niccolo D\'Agostino');
    assert.equal(goamlName('u3_sos_72c7'), 'u3 sos 72c7');
    assert.equal(goamlName('李'), '-');
  });

  it('reads the gender from an Italian tax code (day of birth + 40 for a woman), unspecified otherwise', () => {
    assert.equal(genderOf('VRDGLI80A41H501U'), 'F');
    assert.equal(genderOf('RSSMRA85T10A562S'), 'M');
    assert.equal(genderOf(null), '-');
    assert.equal(genderOf('12345678901'), '-');
  });
});
