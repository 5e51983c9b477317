import assert from 'node:assert/strict';
import { CDD_SCHEMA_VERSION, cddAnswersSchema, cddSchemaFor, UNKNOWN_CDD_VERSION_MESSAGE } from '../../src/domains/onboarding/onboarding.cdd-schema';
import { validateApplication } from '../../src/domains/onboarding/onboarding.validation';
import { completeCompanyApplication, UBO_B } from '../workflows/fixtures/onboarding-application';

const paths = (r: ReturnType<typeof validateApplication>) => r.issues.map((i) => i.path);
const issue = (r: ReturnType<typeof validateApplication>, path: string) => r.issues.find((i) => i.path === path);

describe('onboarding completeness validation', () => {
  it('accepts a complete company application', () => {
    const r = validateApplication(completeCompanyApplication());
    assert.deepEqual(r.issues, []);
    assert.equal(r.ok, true);
  });

  it('an empty draft lists every missing part, in Italian, at its wizard step', () => {
    const r = validateApplication({ tipo_soggetto: null, anagrafe: {}, ubo: [], cdd_answers: {}, cdd_schema_version: null, countries: [], travel_rule: null, documents: [], wallets: [] });
    assert.equal(r.ok, false);
    assert.deepEqual(r.issues, [
      { path: 'subject_type', message: 'Scegli il tipo di cliente', step: 0 },
      { path: 'cdd_answers', message: 'Rispondi al questionario di adeguata verifica', step: 5 },
      { path: 'countries', message: 'Indica almeno un paese', step: 6 },
    ]);
  });

  it('reports each missing field of a section never filled in, nested objects included', () => {
    const r = validateApplication({ ...completeCompanyApplication(), anagrafe: { denominazione: 'Alfa' } });
    assert.ok(paths(r).includes('anagrafe.sede.via'));
    assert.ok(paths(r).includes('anagrafe.legale_rappresentante.documento.numero'));
    assert.ok(r.issues.every((i) => i.step === 1 && !/^Invalid/.test(i.message)));
  });

  it('a company needs at least one beneficial owner, with consistent percentages', () => {
    const none = validateApplication({ ...completeCompanyApplication(), ubo: [] });
    assert.deepEqual(issue(none, 'ubo.titolari'), { path: 'ubo.titolari', message: 'Indica almeno un titolare effettivo', step: 2 });
    const app = completeCompanyApplication();
    app.ubo[1]!.percentuale = 50;
    const over = validateApplication(app);
    assert.equal(issue(over, 'ubo.titolari')?.message, 'Le percentuali superano il 100%');
    const zero = completeCompanyApplication();
    zero.ubo[0]!.percentuale = 0;
    assert.equal(issue(validateApplication(zero), 'ubo.titolari.0.percentuale')?.step, 2);
  });

  it('every required document must be there, per subject and per beneficial owner', () => {
    const app = completeCompanyApplication();
    app.documents = app.documents.filter((d) => !(d.tipo === 'documento_identita' && d.riferimento === UBO_B) && d.tipo !== 'visura_camerale');
    const r = validateApplication(app);
    assert.equal(issue(r, `documenti.documento_identita.${UBO_B}`)?.step, 3);
    assert.match(issue(r, `documenti.documento_identita.${UBO_B}`)!.message, /Anna Neri/);
    assert.equal(issue(r, 'documenti.visura_camerale.soggetto')?.step, 4);
    assert.equal(r.issues.length, 2);
  });

  it('a natural person needs neither owners nor company documents', () => {
    const r = validateApplication({
      ...completeCompanyApplication(), tipo_soggetto: 'persona_fisica', ubo: [], documents: [{ tipo: 'documento_identita', riferimento: 'soggetto' }],
      anagrafe: {
        nome: 'Mario', cognome: 'Rossi', data_nascita: '1980-01-01', luogo_nascita: 'Roma', nazionalita: 'IT', paese_residenza: 'IT',
        residenza: { via: 'Via Po 2', cap: '00100', citta: 'Roma', paese: 'IT' }, professione: 'Impiegato', pep: false,
        documento: { tipo: 'passaporto', numero: 'YA1234567', rilasciato_da: 'Questura di Roma', scadenza: '2099-01-01' },
      },
      cdd_answers: { ...completeCompanyApplication().cdd_answers, settore: undefined, provenienza_patrimonio: 'lavoro' },
    });
    assert.deepEqual(r.issues, []);
  });

  it('checks the questionnaire against its version and the subject type', () => {
    const app = completeCompanyApplication();
    const answers = { ...app.cdd_answers, volume_annuo: 'tantissimo', origine_fondi_dettaglio: '  ', scopo_rapporto: 'altro' } as Record<string, unknown>;
    delete answers.settore;
    const r = validateApplication({ ...app, cdd_answers: answers });
    assert.deepEqual(r.issues.map((i) => [i.path, i.step]).sort(), [
      ['cdd_answers.origine_fondi_dettaglio', 5], ['cdd_answers.scopo_dettaglio', 5], ['cdd_answers.settore', 5], ['cdd_answers.volume_annuo', 5],
    ]);
    const unknown = validateApplication({ ...app, cdd_schema_version: 'cdd-1999-1' });
    assert.deepEqual(unknown.issues, [{ path: 'cdd_answers.versione', message: UNKNOWN_CDD_VERSION_MESSAGE, step: 5 }]);
  });

  it('any wallet needs the completed travel-rule declaration; a large self-hosted one needs proof of control', () => {
    const app = completeCompanyApplication();
    const unsigned = validateApplication({ ...app, travel_rule: { stato: 'signing' } });
    assert.equal(issue(unsigned, 'travel_rule')?.step, 7);
    const noProof = validateApplication({ ...app, wallets: [{ id: 'w-9', tipo: 'self_hosted', volume_annuo_eur: 1500, prova: { metodo: 'firma_messaggio', verificata: false } }] });
    assert.equal(issue(noProof, 'wallets.w-9.prova')?.step, 7);
    const small = validateApplication({ ...app, wallets: [{ id: 'w-8', tipo: 'self_hosted', volume_annuo_eur: 900, prova: null }] });
    assert.deepEqual(small.issues, []);
    const noWallets = validateApplication({ ...app, wallets: [], travel_rule: null });
    assert.deepEqual(noWallets.issues, []);
  });
});

describe('CDD question schema', () => {
  it('is versioned and shows each subject type its own questions', () => {
    const company = cddSchemaFor('societa');
    const person = cddSchemaFor('persona_fisica');
    assert.equal(company.versione, CDD_SCHEMA_VERSION);
    assert.ok(company.domande.some((q) => q.id === 'settore'));
    assert.ok(!company.domande.some((q) => q.id === 'provenienza_patrimonio'));
    assert.ok(person.domande.some((q) => q.id === 'provenienza_patrimonio'));
    assert.ok(!person.domande.some((q) => q.id === 'settore'));
    for (const q of company.domande) if (q.tipo === 'scelta') assert.ok(q.opzioni!.length >= 2, q.id);
    assert.throws(() => cddSchemaFor('societa', 'nope'));
  });

  it('accepts form strings for yes/no and numbers', () => {
    const r = cddAnswersSchema(CDD_SCHEMA_VERSION, 'persona_fisica').safeParse({
      versione: CDD_SCHEMA_VERSION,
      risposte: { ...completeCompanyApplication().cdd_answers, settore: undefined, provenienza_patrimonio: 'lavoro', contanti: 'no', paesi_alto_rischio: 'sì', operazioni_mensili: '12' },
    });
    assert.equal(r.success, true);
    assert.equal((r.data!.risposte as { paesi_alto_rischio: boolean }).paesi_alto_rischio, true);
    assert.equal((r.data!.risposte as { operazioni_mensili: number }).operazioni_mensili, 12);
  });
});
