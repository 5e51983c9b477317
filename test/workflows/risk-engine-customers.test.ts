import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { movementInputSchema } from '../../src/domains/movements';
import { createMovements } from '../../src/domains/movements/movements.commands';
import { activeRuleSet, buildProfiles, classOrdinal, DEFAULT_RULES, recordScores, riskLists, scoreCustomers, thresholds } from '../../src/domains/risk';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The engine against real PostgreSQL: seeding on first use, batched profiles, scoring with movements, recording. */
describe('risk engine: seeding, profiles, scoring and recording', function () {
  this.timeout(120_000);
  let env: TestEnv;
  before(async () => { env = await getTestEnv(); });
  const OGGI = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const highRisk = [...riskLists().paesi_alto_rischio][0]!;

  async function customers(tenant: string) {
    const db = env.ownerDb;
    const ana = (cod: string, over: Record<string, unknown>) => db('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: cod, denominazione: cod, created_by: 'test', ...over });
    await ana('ANA-000001', { tipo_soggetto: 'societa', paese_residenza: 'IT', dati: JSON.stringify({ paesi_operativita: ['CH'] }) });
    await ana('ANA-000002', { tipo_soggetto: 'persona_fisica', nazionalita: highRisk, pep: true, ruolo: 'titolare_effettivo' });
    await ana('ANA-000003', { tipo_soggetto: 'persona_fisica', nazionalita: 'IT', paese_residenza: 'IT' });
    await db('legami').insert({ id: randomUUID(), cod_azienda: tenant, cod_anagrafe_da: 'ANA-000001', cod_anagrafe_a: 'ANA-000002', tipo: 'titolare_effettivo', percentuale: 60, dal: daysAgo(400), created_by: 'test' });
    // A link that ended does not count.
    await db('legami').insert({ id: randomUUID(), cod_azienda: tenant, cod_anagrafe_da: 'ANA-000003', cod_anagrafe_a: 'ANA-000002', tipo: 'familiare', dal: daysAgo(400), al: daysAgo(10), created_by: 'test' });
    for (const [rap, cod, tipo] of [['RAP-000001', 'ANA-000001', 'conto_corrente'], ['RAP-000002', 'ANA-000003', 'conto_corrente']] as const) {
      await db('rapporti').insert({ cod_azienda: tenant, cod_rapporto: rap, cod_anagrafe: cod, tipo, data_apertura: daysAgo(500), created_by: 'test' });
      await db('rapporti_soggetti').insert({ id: randomUUID(), cod_azienda: tenant, cod_rapporto: rap, cod_anagrafe: cod, ruolo: 'intestatario', dal: daysAgo(500), created_by: 'test' });
    }
    const subject = randomUUID();
    await db('screening_subjects').insert({ id: subject, cod_azienda: tenant, cod_anagrafe: 'ANA-000002', nome: 'Titolare', tipo: 'person' });
    await db('screening_matches').insert({ id: randomUUID(), cod_azienda: tenant, subject_id: subject, list_name: 'un_sc_sanctions', entry_id: 'X1', entry_hash: 'h', score: 0.9, stato: 'open' });
    await db('questionari').insert({
      id: randomUUID(), cod_azienda: tenant, cod_questionario: 'QST-000001', template_id: '5c0d4a5e-6b0f-4f3a-9a41-0c2d7e1b9a01', template_codice: 'kyc', template_versione: 1,
      cod_anagrafe: 'ANA-000003', tipo_soggetto: 'persona_fisica', risposte: JSON.stringify({ volume_annuo: 'fino_10k', contanti: 'si' }), stato: 'completato', completed_at: new Date(), created_by: 'test',
    });
    // ANA-000003 moves 60k in cash against 10k declared: cash share, volume against declared.
    const movimenti = [1, 2, 3].map((i) => movementInputSchema.parse({
      cod_rapporto: 'RAP-000002', data_operazione: daysAgo(i * 20), importo: '20000.00', segno: 'entrata', contanti: true, chiave_esterna: `m-${i}`, controparte_paese: i === 1 ? highRisk : 'IT',
    }));
    await createMovements(env.deps.db, tenant, 'test', movimenti);
  }

  it('seeds the default model once per tenant, even when two transactions ask at the same time', async () => {
    const tenant = await env.createTenant();
    const [a, b] = await Promise.all([0, 1].map(() => withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => activeRuleSet(trx, tenant))));
    assert.equal(a!.id, b!.id);
    assert.deepEqual([a!.versione, a!.stato, a!.regole.length], [1, 'active', DEFAULT_RULES.length]);
    assert.ok(a!.regole.length >= 30);
    const versions = await env.ownerDb('rischio_versioni').where({ cod_azienda: tenant });
    assert.equal(versions.length, 1);
    const soglie = await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => thresholds(trx, tenant));
    assert.deepEqual(soglie.map((s) => [s.classe, s.punteggio_min]), [['basso', 0], ['medio', 20], ['medio_alto', 30], ['alto', 40]]);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'risk_model.seed' });
    assert.equal(audit.length, 1);
    const families = new Set((await env.ownerDb('rischio_fattori').where({ cod_azienda: tenant })).map((f: { famiglia: string }) => f.famiglia));
    assert.deepEqual([...families].sort(), ['canale', 'cliente', 'geografia', 'prodotto']);
  });

  it('builds profiles in a batch: links, relationships, screening of linked people, the latest questionnaire; another tenant\'s codes are absent', async () => {
    const tenant = await env.createTenant();
    const other = await env.createTenant();
    await customers(tenant);
    const profiles = await withTenant(env.deps.db, { codAzienda: other }, (trx) => buildProfiles(trx, other, ['ANA-000001'], OGGI));
    assert.equal(profiles.size, 0);
    const p = await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => buildProfiles(trx, tenant, ['ANA-000001', 'ANA-000003', 'ANA-999999'], OGGI, { paesiControparti: true }));
    assert.deepEqual([...p.keys()].sort(), ['ANA-000001', 'ANA-000003']);
    const company = p.get('ANA-000001')!;
    assert.deepEqual([company.cliente.tipo_soggetto, company.cliente.pep, company.cliente.pep_collegati, company.titolari], ['societa', false, true, { numero: 1, pep: true }]);
    assert.deepEqual(company.geografia.paesi_collegati, [highRisk]);
    assert.deepEqual(company.geografia.paesi.sort(), ['CH', 'IT', highRisk].sort());
    assert.deepEqual([company.prodotto.tipi_rapporto, company.prodotto.rapporti_attivi], [['conto_corrente'], 1]);
    assert.deepEqual(company.screening, { corrispondenze_aperte: 1, corrispondenze_confermate: 0 }, 'the owner\'s open match is the company\'s');
    const person = p.get('ANA-000003')!;
    assert.equal(person.cliente.pep_collegati, false, 'the family link ended');
    assert.deepEqual(person.questionario, { volume_annuo: 'fino_10k', contanti: true });
    assert.equal(person.dichiarato.volume_annuo_eur, 10_000);
    assert.deepEqual(person.geografia.paesi_controparti.sort(), ['IT', highRisk].sort());
  });

  it('scores a batch with its movement aggregates, explains each contribution, and records history and the current row', async () => {
    const tenant = await env.createTenant();
    await customers(tenant);
    const scored = await withTenant(env.deps.db, { codAzienda: tenant }, async (trx) => {
      const v = await activeRuleSet(trx, tenant);
      return scoreCustomers(trx, tenant, ['ANA-000001', 'ANA-000003'], v, OGGI);
    });
    const company = scored.get('ANA-000001')!.punteggio;
    assert.deepEqual(company.contributi.map((c) => c.codice).sort(), ['paese_alto_rischio', 'paese_extra_see', 'pep', 'screening_aperto', 'tipo_societa'].sort());
    assert.equal(company.classe, 'alto');
    const person = scored.get('ANA-000003')!.punteggio;
    const personCodes = person.contributi.map((c) => c.codice);
    for (const c of ['controparti_alto_rischio', 'quota_contanti', 'contanti_mese', 'volume_oltre_dichiarato', 'q_contanti']) assert.ok(personCodes.includes(c), `${c} in ${personCodes.join()}`);
    const declared = person.contributi.find((c) => c.codice === 'volume_oltre_dichiarato')!;
    assert.ok(declared.letti.some((l) => l.path === 'dichiarato.volume_annuo_eur' && l.valore === 10_000), JSON.stringify(declared.letti));
    assert.equal(person.impatto, 2, '60k in the last year');

    await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => recordScores(trx, tenant, [...scored].map(([cod, s]) => ({ cod_anagrafe: cod, punteggio: s.punteggio, origine: 'portafoglio' as const }))));
    await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => recordScores(trx, tenant, [{ cod_anagrafe: 'ANA-000003', punteggio: person, origine: 'manuale' }], { effettiva: 'calcolata' }));
    const storico = await env.ownerDb('rischio_storico').where({ cod_azienda: tenant }).orderBy('id');
    assert.deepEqual(storico.map((s: { cod_anagrafe: string; origine: string }) => [s.cod_anagrafe, s.origine]),
      [['ANA-000001', 'portafoglio'], ['ANA-000003', 'portafoglio'], ['ANA-000003', 'manuale']]);
    const correnti = await env.ownerDb('rischio_correnti').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(correnti.map((c: { cod_anagrafe: string; classe_calcolata: string; classe_effettiva: string | null; punteggio: number }) => [c.cod_anagrafe, c.classe_calcolata, c.classe_effettiva, c.punteggio]),
      [['ANA-000001', 'alto', null, company.punteggio], ['ANA-000003', person.classe, person.classe, person.punteggio]]);
    assert.equal(correnti[0].contributi.length, company.contributi.length);
    assert.deepEqual(correnti.map((c: { probabilita: number }) => c.probabilita), [4, classOrdinal(person.classe)]);
    // A later calculation with another class: the class in force stays, and with it the matrix's probability.
    await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => recordScores(trx, tenant, [{ cod_anagrafe: 'ANA-000003', punteggio: { ...person, classe: 'basso', probabilita: 1 }, origine: 'portafoglio' }]));
    const later = await env.ownerDb('rischio_correnti').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000003' }).first();
    assert.deepEqual([later.classe_calcolata, later.classe_effettiva, later.probabilita], ['basso', person.classe, classOrdinal(person.classe)]);
  });
});
