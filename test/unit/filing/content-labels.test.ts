import assert from 'node:assert/strict';
import { contentSections, placeOf } from '../../../src/domains/filing/filing.content-labels';
import { goamlDisplay } from '../../../src/domains/filing/filing.view-model';

describe('filing page: the goAML content by section, with Italian names', () => {
  it('places each field under the report, an operation or a party of it, named in Italian', () => {
    assert.deepEqual(placeOf('reason'), { section: 'report', group: 'Intestazione', label: 'Motivo della segnalazione' });
    assert.deepEqual(placeOf('reporting_person.last_name'), { section: 'report', group: 'Persona segnalante', label: 'Cognome' });
    assert.deepEqual(placeOf('report_indicators.indicator[1]'), { section: 'report', group: 'Indicatori', label: 'Indicatore 2' });
    assert.deepEqual(placeOf('transaction[0].amount_local'), { section: 'transactions', group: 'Operazione 1', label: 'Importo (valuta locale)' });
    assert.deepEqual(placeOf('transaction[1].t_from_my_client.from_person.first_name'), { section: 'parties', group: 'Operazione 2 · Ordinante (cliente) · Persona', label: 'Nome' });
    assert.deepEqual(placeOf('transaction.t_to.to_country'), { section: 'parties', group: 'Operazione · Beneficiario', label: 'Paese di destinazione' });
    assert.deepEqual(placeOf('transaction[0].involved_parties.party[1].role'), { section: 'parties', group: 'Operazione 1 · Parti coinvolte', label: 'Ruolo' });
    assert.equal(placeOf('activity.report_parties.report_party[0].significance').section, 'parties');
    assert.equal(placeOf('some_new_field').label, 'some new field');
  });

  it('groups rows in the report\'s order: report, operations, parties', () => {
    const rows = ['transaction[0].t_to.to_country', 'reason', 'transaction[0].amount_local', 'rentity_id'].map((path) => ({ path, value: 'x' }));
    const s = contentSections(rows);
    assert.deepEqual(s.map((x) => x.key), ['report', 'transactions', 'parties']);
    assert.deepEqual(s[0]!.groups[0]!.rows.map((r) => r.label), ['Motivo della segnalazione', 'Codice del segnalante']);
  });

  it('shows goAML dates as a person reads them, from the text (no zone to convert from)', () => {
    assert.equal(goamlDisplay('2026-05-26T10:00:00'), '26/05/2026 10:00');
    assert.equal(goamlDisplay('1989-07-02T00:00:00'), '02/07/1989');
    assert.equal(goamlDisplay('STR'), 'STR');
    assert.equal(goamlDisplay('2026-05-26'), '2026-05-26', 'not a goAML date-time: left as written');
  });
});
