import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { insertApprovedEdd } from '../helpers/edd-fixture';

interface Task {
  id: string; cod_pratica: string; cod_anagrafe: string; stato: string; livello: string; motivazioni_livello: { codice: string; testo: string }[];
  allowed_actions: string[]; workflow_id: string; next_review_id: string | null; next_review_at: string | null; creata?: boolean;
}

/** Answers to every required question of the default template for a natural person. */
const FULL_ANSWERS = {
  scopo_rapporto: 'investimento', natura_rapporto: 'continuativo', origine_fondi: 'reddito_lavoro',
  origine_fondi_dettaglio: 'Stipendio da dipendente presso Alfa S.p.A.', origine_patrimonio: 'lavoro', volume_annuo: 'fino_10k',
  contanti: false, paesi_operativita: ['IT', 'fr'], pep: false, professione: 'Ingegnere',
};

describe('CDD and KYC API', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let analyst2: TestClient;
  let co: TestClient;
  let viewer: TestClient;
  let sos: TestUser;
  let outsider: TestClient;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    sos = await env.createUser({ tenant, roles: ['sos'] });
    [analyst, analyst2, co, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  /** A customer of the tenant; `over` sets its class, PEP flag, countries. */
  async function customer(over: Record<string, unknown> = {}, t = tenant): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({
      cod_azienda: t, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, nome: 'Mario', cognome: `Rossi${n}`,
      nazionalita: 'IT', paese_residenza: 'IT', classe_rischio: 'basso', created_by: 'test', ...over,
    });
    return cod;
  }

  async function initiate(cod: string, client = analyst): Promise<Task> {
    const r = await client.post(`/api/cdd/initiate/${cod}`, {});
    assert.equal(r.status, 201, r.text);
    return r.body as Task;
  }

  const move = (client: TestClient, id: string, azione: string, nota?: string) =>
    client.put(`/api/cdd/tasks/${id}/transition`, { azione, ...(nota !== undefined ? { nota } : {}) });

  /** A completed questionnaire for the customer's task. */
  async function questionnaire(cod: string, task?: string, answers: Record<string, unknown> = FULL_ANSWERS) {
    const q = await analyst.post('/api/v1/questionari', { cod_anagrafe: cod, ...(task ? { cdd_pratica: task } : {}) });
    assert.equal(q.status, 201, q.text);
    const a = await analyst.post(`/api/v1/questionari/${q.body.cod_questionario}/risposte`, { risposte: answers });
    assert.equal(a.status, 200, a.text);
    const c = await analyst.put(`/api/v1/questionari/${q.body.cod_questionario}/completa`, {});
    assert.equal(c.status, 200, c.text);
    return c.body as { cod_questionario: string; stato: string };
  }

  describe('initiate', () => {
    it('opens a simplified task for a low-risk customer, with its code, reasons and workflow; a second initiate answers the open one', async () => {
      const cod = await customer();
      const t = await initiate(cod);
      assert.match(t.cod_pratica, /^CDD-\d{6}$/);
      assert.equal(t.stato, 'open');
      assert.equal(t.livello, 'semplificata');
      assert.deepEqual(t.motivazioni_livello.map((m) => m.codice), ['classe_bassa']);
      assert.equal(t.workflow_id, `cdd-task:${tenant}:${t.id}`);
      assert.equal(t.creata, true);
      assert.deepEqual([...t.allowed_actions].sort(), ['abstain', 'add-note', 'start']);

      const again = await co.post(`/api/cdd/initiate/${cod}`, { motivo: 'manuale' });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.id, t.id);
      assert.equal(again.body.creata, false);
      const { rows } = await env.ownerDb.raw('select count(*)::int as n from cdd_pratiche where cod_azienda = ? and cod_anagrafe = ?', [tenant, cod]);
      assert.equal(rows[0].n, 1);
    });

    it('gives a PEP or a customer resident in a high-risk third country the enhanced level, naming why', async () => {
      const pep = await initiate(await customer({ pep: true }));
      assert.equal(pep.livello, 'rafforzata');
      assert.ok(pep.motivazioni_livello.some((m) => m.codice === 'pep'));
      const ir = await initiate(await customer({ paese_residenza: 'IR', classe_rischio: 'medio' }));
      assert.equal(ir.livello, 'rafforzata');
      assert.ok(ir.motivazioni_livello.some((m) => m.codice === 'paese_alto_rischio_ue' && /IR/.test(m.testo)));
      const medium = await initiate(await customer({ classe_rischio: 'medio' }));
      assert.equal(medium.livello, 'ordinaria');
    });

    it('refuses bad input (422), unknown or another tenant\'s customer (404), and a viewer (403)', async () => {
      const cod = await customer();
      const bad = await analyst.post(`/api/cdd/initiate/${cod}`, { motivo: 'capriccio' });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.errors[0].path, 'motivo');
      assert.equal((await analyst.post('/api/cdd/initiate/ANA-999999', {})).status, 404);
      const foreign = await customer({}, other);
      assert.equal((await analyst.post(`/api/cdd/initiate/${foreign}`, {})).status, 404);
      assert.equal((await viewer.post(`/api/cdd/initiate/${cod}`, {})).status, 403);
      const gone = await customer({ stato: 'eliminato', eliminato_at: new Date(), eliminato_da: 'test' });
      const refused = await analyst.post(`/api/cdd/initiate/${gone}`, {});
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'CUSTOMER_DELETED');
    });
  });

  describe('transitions and completion', () => {
    it('runs the whole task: start, review, four-eyes, questionnaire required, complete; the next review by class', async () => {
      const cod = await customer();
      const t = await initiate(cod);
      const started = await move(analyst, t.id, 'start');
      assert.equal(started.status, 200, started.text);
      assert.equal(started.body.stato, 'in_progress');

      const early = await analyst.post(`/api/cdd/tasks/${t.id}/complete`, {});
      assert.equal(early.status, 409);
      assert.equal(early.body.code, 'INVALID_TRANSITION');
      assert.deepEqual([...early.body.allowed_actions].sort(), ['abstain', 'add-note', 'review']);

      const noNote = await move(analyst, t.id, 'add-note');
      assert.equal(noNote.status, 422);
      assert.equal(noNote.body.errors[0].path, 'nota');
      assert.equal((await move(analyst, t.id, 'add-note', 'Chiamato il cliente per la documentazione')).status, 200);
      assert.equal((await move(analyst, t.id, 'vola')).status, 422);

      const review = await move(analyst, t.id, 'review');
      assert.equal(review.body.stato, 'pending_review');
      assert.ok(!review.body.allowed_actions.includes('complete'), 'the one who asked for the review is not offered to complete');

      const own = await analyst.post(`/api/cdd/tasks/${t.id}/complete`, {});
      assert.equal(own.status, 403);
      assert.equal(own.body.code, 'FOUR_EYES_REQUIRED');

      const noQuestionnaire = await analyst2.post(`/api/cdd/tasks/${t.id}/complete`, {});
      assert.equal(noQuestionnaire.status, 409, noQuestionnaire.text);
      assert.equal(noQuestionnaire.body.code, 'QUESTIONNAIRE_INCOMPLETE');
      assert.equal((await analyst.get(`/api/cdd/tasks/${t.id}`)).body.stato, 'pending_review', 'a refused completion changes nothing');

      await questionnaire(cod, t.cod_pratica);
      // A simplified task: an analyst other than the requester may complete it (tenant policy, default on).
      const done = await analyst2.post(`/api/cdd/tasks/${t.id}/complete`, { nota: 'Verifica semplificata conclusa' });
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.stato, 'completed');
      assert.deepEqual(done.body.allowed_actions, []);
      const years = (new Date(done.body.next_review_at).getTime() - Date.now()) / (365.25 * 86_400_000);
      assert.ok(Math.abs(years - 5) < 0.02, `low risk: next review in 5 years, got ${years}`);

      const review5 = await env.ownerDb('cdd_reviews').where({ id: done.body.next_review_id }).first();
      assert.equal(review5.stato, 'programmata');
      assert.equal(review5.cod_anagrafe, cod);
      const dati = (await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).first()).dati;
      assert.equal(dati.adeguata_verifica.cod_pratica, t.cod_pratica);
      assert.equal(dati.adeguata_verifica.livello, 'semplificata');

      const audit = (await analyst.get(`/api/cdd/tasks/${t.id}`)).body.audit.map((a: { action: string }) => a.action);
      assert.deepEqual(audit, ['cdd_task.create', 'cdd_task.start', 'cdd_task.add-note', 'cdd_task.review', 'cdd_task.complete']);

      const after = await move(co, t.id, 'start');
      assert.equal(after.status, 409);
      assert.deepEqual(after.body.allowed_actions, []);
    });

    it('reserves the completion of an enhanced task to the compliance officer', async () => {
      const cod = await customer({ pep: true });
      const t = await initiate(cod);
      await move(analyst, t.id, 'start');
      await move(analyst, t.id, 'review');
      await questionnaire(cod, t.id);
      const byAnalyst = await analyst2.post(`/api/cdd/tasks/${t.id}/complete`, {});
      assert.equal(byAnalyst.status, 403, byAnalyst.text);
      assert.equal(byAnalyst.body.code, 'FORBIDDEN');
      // Enhanced measures first: without an approved EDD case since the task opened, no completion.
      const early = await co.post(`/api/cdd/tasks/${t.id}/complete`, {});
      assert.equal(early.status, 409, early.text);
      assert.equal(early.body.code, 'EDD_REQUIRED');
      await insertApprovedEdd(env.ownerDb, tenant, cod, t.id);
      const byCo = await co.post(`/api/cdd/tasks/${t.id}/complete`, {});
      assert.equal(byCo.status, 200, byCo.text);
      // High risk is not implied by PEP: the class decides the interval (basso: 5 years).
      const last = (await co.get(`/api/cdd/tasks/${t.id}`)).body.audit.at(-1);
      assert.equal(last.action, 'cdd_task.complete');
      assert.equal(last.data.edd, 'approvata');
    });

    it('sends a task back with a note, deletes an open one (co, reason), and hides another tenant\'s (404)', async () => {
      const t = await initiate(await customer());
      await move(analyst, t.id, 'start');
      await move(analyst, t.id, 'review');
      assert.equal((await move(co, t.id, 'send-back')).status, 422);
      const back = await move(co, t.id, 'send-back', 'Manca la fonte del patrimonio');
      assert.equal(back.body.stato, 'in_progress');

      const t2 = await initiate(await customer());
      assert.equal((await move(analyst, t2.id, 'delete', 'Aperta per errore')).status, 403);
      assert.equal((await move(co, t2.id, 'delete')).status, 422);
      const del = await move(co, t2.id, 'delete', 'Aperta per errore');
      assert.equal(del.status, 200, del.text);
      assert.equal(del.body.stato, 'deleted');

      assert.equal((await outsider.get(`/api/cdd/tasks/${t.id}`)).status, 404);
      assert.equal((await move(outsider, t.id, 'start')).status, 404);
      assert.equal((await outsider.post(`/api/cdd/tasks/${t.id}/complete`, {})).status, 404);
      assert.equal((await analyst.get('/api/cdd/tasks/not-an-id')).status, 404);
      assert.equal((await analyst.get(`/api/cdd/tasks/${t.cod_pratica}`)).body.id, t.id, 'the code finds the task too');
    });
  });

  describe('abstention', () => {
    it('abstains on the open task with the reasons and tells the SOS delegates, not the customer', async () => {
      const cod = await customer({ email: 'cliente@example.test' });
      const t = await initiate(cod);
      const missing = await analyst.post(`/api/cdd/abstention/${cod}`, {});
      assert.equal(missing.status, 422);
      assert.equal(missing.body.errors[0].path, 'motivazione');
      const r = await analyst.post(`/api/cdd/abstention/${cod}`, { motivazione: 'Il cliente rifiuta di indicare l\'origine dei fondi' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, t.id);
      assert.equal(r.body.stato, 'abstained');
      assert.equal(r.body.motivazione_astensione, 'Il cliente rifiuta di indicare l\'origine dei fondi');
      const notes = await env.ownerDb('notifications').where({ cod_azienda: tenant, entity_id: t.id });
      assert.deepEqual(notes.map((x) => [x.cod_utente, x.tipo]), [[sos.cod_utente, 'cdd_abstention']]);
      const toCustomer = await env.ownerDb('outbox_messages').where({ cod_azienda: tenant, recipient: 'cliente@example.test' });
      assert.equal(toCustomer.length, 0, 'nothing reaches the customer');
    });

    it('records an abstention for a customer with no open task, and 404s another tenant\'s customer', async () => {
      const cod = await customer();
      const r = await co.post(`/api/cdd/abstention/${cod}`, { motivazione: 'Impossibile identificare il titolare effettivo' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.stato, 'abstained');
      assert.equal((await co.post(`/api/cdd/abstention/${await customer({}, other)}`, { motivazione: 'x' })).status, 404);
      assert.equal((await viewer.post(`/api/cdd/abstention/${cod}`, { motivazione: 'x' })).status, 403);
    });
  });

  describe('history, lists and schedules', () => {
    it('lists a customer\'s tasks newest first; another tenant\'s customer is not found', async () => {
      const cod = await customer();
      const first = await initiate(cod);
      await move(co, first.id, 'delete', 'Duplicata');
      const second = await initiate(cod);
      const h = await viewer.get(`/api/cdd/history/${cod}`);
      assert.equal(h.status, 200, h.text);
      assert.deepEqual(h.body.items.map((x: Task) => x.id), [second.id, first.id]);
      assert.equal((await viewer.get(`/api/cdd/history/${await customer({}, other)}`)).status, 404);
      const list = await viewer.get(`/api/cdd/tasks?cod_anagrafe=${cod}&aperte=true`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.items.map((x: Task) => x.id), [second.id]);
      assert.equal((await viewer.get('/api/cdd/tasks?stato=volante')).status, 422);
    });

    it('lists due and overdue reviews with the list kit; bad filters are 422', async () => {
      const cod = await customer();
      const id = crypto.randomUUID();
      await env.ownerDb('cdd_reviews').insert({
        id, cod_azienda: tenant, cod_anagrafe: cod, motivo: 'prima_revisione', classe_rischio: 'basso', due_at: new Date(Date.now() - 86_400_000),
        stato: 'programmata', workflow_id: `cdd-review:${tenant}:${id}`,
      });
      const r = await viewer.get(`/api/cdd/schedules?cod_anagrafe=${cod}&scadute=true`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.items.map((x: { id: string; in_ritardo: boolean }) => [x.id, x.in_ritardo]), [[id, true]]);
      assert.equal((await viewer.get('/api/cdd/schedules?entro_giorni=-3')).body.errors[0].path, 'entro_giorni');
      assert.equal((await outsider.get(`/api/cdd/schedules?cod_anagrafe=${cod}`)).body.items.length, 0);
    });
  });

  describe('KYC questionnaire', () => {
    it('serves the active template\'s questions per subject type', async () => {
      const pf = await viewer.get('/api/kyc/domande?tipo_soggetto=persona_fisica');
      assert.equal(pf.status, 200, pf.text);
      const ids = pf.body.domande.map((d: { id: string }) => d.id);
      assert.ok(ids.includes('origine_fondi') && ids.includes('professione') && !ids.includes('struttura_proprietaria'));
      const soc = await viewer.get('/api/kyc/domande?tipo_soggetto=societa');
      assert.ok(soc.body.domande.some((d: { id: string }) => d.id === 'struttura_proprietaria'));
      assert.equal((await viewer.get('/api/kyc/domande')).status, 422);
      assert.equal((await viewer.get('/api/kyc/domande?tipo_soggetto=trust')).body.errors[0].path, 'tipo_soggetto');
    });

    it('validates answers against the template: unknown question, wrong type, bad country, missing required, each named', async () => {
      const cod = await customer();
      const q = (await analyst.post('/api/v1/questionari', { cod_anagrafe: cod })).body;
      assert.match(q.cod_questionario, /^QST-\d{6}$/);
      assert.equal(q.stato, 'bozza');
      const path = `/api/v1/questionari/${q.cod_questionario}`;
      const cases: [Record<string, unknown>, string][] = [
        [{ colore_preferito: 'blu' }, 'colore_preferito'],
        [{ contanti: 'forse' }, 'contanti'],
        [{ scopo_rapporto: 'speculazione' }, 'scopo_rapporto'],
        [{ operazioni_mensili: -1 }, 'operazioni_mensili'],
        [{ paesi_operativita: ['IT', 'XX'] }, 'paesi_operativita'],
        [{ struttura_proprietaria: 'Holding' }, 'struttura_proprietaria'],
      ];
      for (const [risposte, named] of cases) {
        const r = await analyst.post(`${path}/risposte`, { risposte });
        assert.equal(r.status, 422, `${JSON.stringify(risposte)}: ${r.text}`);
        assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), [named]);
      }
      assert.equal((await analyst.post(`${path}/risposte`, { risposte: 'tutto bene' })).status, 422);

      const partial = await analyst.post(`${path}/risposte`, { risposte: { scopo_rapporto: 'altro', pep: true } });
      assert.equal(partial.status, 200, partial.text);
      const incomplete = await analyst.put(`${path}/completa`, {});
      assert.equal(incomplete.status, 422);
      const missing = incomplete.body.errors.map((e: { path: string }) => e.path);
      assert.ok(missing.includes('origine_fondi') && missing.includes('scopo_dettaglio') && missing.includes('pep_dettaglio'), missing.join(','));

      await analyst.post(`${path}/risposte`, { risposte: { ...FULL_ANSWERS, scopo_rapporto: 'altro', scopo_dettaglio: 'Gestione della liquidità', pep: true, pep_dettaglio: 'Sindaco 2019-2024' } });
      const done = await analyst.put(`${path}/completa`, {});
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.stato, 'completato');
      assert.deepEqual(done.body.risposte.paesi_operativita, ['IT', 'FR']);
      assert.equal((await analyst.post(`${path}/risposte`, { risposte: { contanti: true } })).status, 409);
      assert.equal((await viewer.get(path)).body.cod_questionario, q.cod_questionario);
      assert.equal((await outsider.get(path)).status, 404);
      assert.equal((await viewer.post(`${path}/risposte`, { risposte: {} })).status, 403);
    });

    it('refuses a questionnaire for another tenant\'s customer or task (422 naming the field)', async () => {
      const r = await analyst.post('/api/v1/questionari', { cod_anagrafe: await customer({}, other) });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].path, 'cod_anagrafe');
      const mine = await customer();
      const t = await initiate(await customer());
      const wrong = await analyst.post('/api/v1/questionari', { cod_anagrafe: mine, cdd_pratica: t.cod_pratica });
      assert.equal(wrong.status, 422);
      assert.equal(wrong.body.errors[0].path, 'cdd_pratica');
      assert.equal((await analyst.post('/api/v1/questionari', {})).body.errors[0].path, 'cod_anagrafe');
    });

    it('keeps the customer\'s KYC profile: the latest completed answers; a submission must be complete', async () => {
      const cod = await customer();
      const empty = await viewer.get(`/api/kyc/anagrafe/${cod}`);
      assert.equal(empty.status, 200, empty.text);
      assert.equal(empty.body.questionario, null);
      const partial = await analyst.post(`/api/kyc/anagrafe/${cod}`, { risposte: { scopo_rapporto: 'investimento' } });
      assert.equal(partial.status, 422);
      assert.ok(partial.body.errors.some((e: { path: string }) => e.path === 'origine_fondi'));
      const ok = await analyst.post(`/api/kyc/anagrafe/${cod}`, { risposte: FULL_ANSWERS });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.stato, 'completato');
      const profile = await viewer.get(`/api/kyc/anagrafe/${cod}`);
      assert.equal(profile.body.questionario.cod_questionario, ok.body.cod_questionario);
      assert.equal(profile.body.questionario.risposte.professione, 'Ingegnere');
      // What the completed questionnaire declares is on the record, as a new version by who completed it.
      const record = await viewer.get(`/api/anagrafe/${cod}`);
      assert.deepEqual([record.body.professione, record.body.volume_mensile_atteso_eur, record.body.uso_contanti_atteso], ['Ingegnere', 833.33, 'basso']);
      assert.deepEqual(Object.keys(record.body.versioni[0].campi).sort(), ['professione', 'uso_contanti_atteso', 'volume_mensile_atteso_eur']);
      assert.match(record.body.versioni[0].changed_by, /analyst/, 'the user who completed it');
      assert.equal((await outsider.get(`/api/kyc/anagrafe/${cod}`)).status, 404);
      assert.equal((await outsider.post(`/api/kyc/anagrafe/${cod}`, { risposte: FULL_ANSWERS })).status, 404);
    });
  });
});
