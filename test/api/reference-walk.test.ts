import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ReferenceTarget } from '../../src/db/references';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient, TestResponse } from '../helpers/http-client';
import { TINY_PNG } from '../helpers/onboarding';
import { bodyFields, fillPath, isUnsafe, operations, referenceOf, withValueAt, type OpenApiDoc, type Operation } from '../helpers/openapi-walk';
import { missingValues, tenantRecords, type TenantRecords } from '../helpers/reference-world';
import { ivms101Payload } from '../helpers/travel-rule-fixture';

/**
 * Every reference to another record in an API write body is resolved inside the caller's tenant
 * (docs/architecture.md, "Bad input"). The walk reads the published document: a body field
 * declared a reference (`refersTo`, `x-reference`) is sent naming a record of another tenant and
 * naming nothing, in an otherwise valid body, and must be refused with 422 naming that field,
 * the same answer both times, with nothing written in either tenant; the valid body is then
 * accepted. A field that looks like a reference (cod_*, *_id, an assignee, a uuid...) must be
 * declared one or be listed below as not one, so a new route cannot forget the check unseen.
 */

/** Body fields that look like references and are not, with why: `METHOD /path field`. */
const NOT_REFERENCES: Record<string, string> = {
  'POST /api/admin/aziende cod_azienda': 'the code of the tenant being created',
  'POST /api/admin/utenti cod_azienda': 'the tenant a superadmin creates the user in (platform scope: 422 when it does not exist); a tenant\'s admin may name only their own (403)',
  'POST /api/engine/seed cod_azienda': 'the tenant a superadmin seeds (platform scope, as the admin settings: 404 when it does not exist); anyone else may name only their own (another is a 404)',
  'POST /api/magic-link cod_azienda': 'public: the tenant whose wizard asks for a link; the answer is the same whether it exists or not',
  'POST /api/edd/{id}/step/{step_id}/completa riferimento_evidenza': 'free text: where the evidence is kept (a protocol number, a file)',
  'POST /api/risk/assessments riferimento': 'free text: what prompted the assessment',
  'POST /api/risk/calculate/{cod_anagrafe} riferimento': 'free text: what prompted the calculation',
  'POST /api/v1/travel-rule/transazioni riferimento_esterno': 'the sending VASP\'s own reference of the transfer (its idempotency key)',
  'POST /api/reporting/reports/{id}/submit riferimento': 'free text: the portal\'s reference of the send (Infostat-UIF protocol)',
  'POST /api/reporting/reports/{id}/complete-submission submission_id': 'a submission of the report in the path (itself 404 in another tenant): the report\'s workflow accepts only its pending one (409 SUBMISSION_NOT_PENDING)',
  'POST /api/v1/screening/run cod_anagrafe': 'the key of the screened subject in the caller\'s tenant, created when new: the screening API also serves subjects outside the registry',
  'POST /api/monitoring/rules cod_regola': 'the new rule\'s own code, its identity across versions (chosen by the tenant, refused when taken)',
  'POST /api/sos/reports content.operazioni.0.cod_alert': 'a label copied from the alert the operation came from; the operation itself is named by movimento_id',
  'POST /api/sanctions/batch-screen subjects.0.cod_anagrafe': 'as for POST /api/v1/screening/run: the key of each screened subject',
};

const LOOKS_LIKE_A_REFERENCE = /^(cod_|id_)|_ids?$|^(id|assegnatario|titolare|documenti|riferimento.*|case_id)$/;
const keyOf = (path: string[]) => path.filter((p) => !/^\d+$/.test(p)).at(-1) ?? '';
const opKey = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

interface Call {
  /** The concrete path (default: the operation's, with no parameters). */
  path?: string;
  body: Record<string, unknown>;
  /** The onboarding applicant calls it (default: the tenant's staff user). */
  applicant?: boolean;
  /**
   * Waits for the background work the accepted call started (a risk run writes its results in
   * batches, with pauses longer than the walk's settling): otherwise the next route's probes would
   * count those rows as written by a refused call.
   */
  settle?: (accepted: TestResponse, staff: TestClient) => Promise<void>;
}
type Fixture = (a: TenantRecords, helpers: { staff: TestClient; env: TestEnv }) => Promise<Call>;

const ok = (r: TestResponse, what: string) => assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
const today = () => new Date().toISOString().slice(0, 10);

/** A valid call of every route with references, naming the caller's own records (what the walk replaces, field by field). */
const FIXTURES: Record<string, Fixture> = {
  'POST /api/cases': async (a) => ({ body: { titolo: 'Percorso dei riferimenti', tipo: 'indagine', priorita: 'media', cod_anagrafe: a.persone[0], assegnatario: a.values.utente } }),
  'POST /api/documenti': async (a) => ({ body: { cod_anagrafe: a.persone[0], tipo: 'altro', numero: 'DOC-2' } }),
  'POST /api/documents/spine': async (a) => ({ body: { cod_anagrafe: a.persone[0], descrizione: 'Documento del percorso' } }),
  'POST /api/dossier/generate': async (a) => ({ body: { cod_anagrafe: a.persone[0], sezioni: ['identita'] } }),
  'POST /api/edd': async (a) => ({ body: { cod_anagrafe: a.persone[0], motivi: ['pep'], cdd_pratica_id: a.values.cdd_pratica } }),
  'POST /api/edd/{id}/step': async (a, { staff }) => {
    const edd = await staff.post('/api/edd', { cod_anagrafe: a.persone[1], motivi: ['pep'] });
    ok(edd, 'EDD case');
    return { path: `/api/edd/${edd.body.id}/step`, body: { tipo: 'altro', titolo: 'Misura del percorso', assegnatario: a.values.utente } };
  },
  'POST /api/engine/pilot/run-roundtrip': async (a) => ({ body: { cod_anagrafe: a.persone[0] } }),
  'POST /api/kyt/events': async (a) => ({
    body: { eventi: [{
      chain: 'ethereum', hash: `0x${randomUUID().replaceAll('-', '')}`, indirizzo_da: '0x7777777777777777777777777777777777777777', indirizzo_a: '0x8888888888888888888888888888888888888888',
      asset: 'ETH', importo: '0.1', importo_eur: 250, data_ora: new Date().toISOString(), cod_anagrafe: a.persone[0], direzione: 'entrata',
    }] },
  }),
  'POST /api/monitoring/alerts': async (a) => ({
    body: { cod_anagrafe: a.persone[0], cod_rapporto: a.values.rapporto, tipologia: 'altro', punteggio: 40, motivazione: 'Percorso dei riferimenti', movimenti: [a.values.movimento] },
  }),
  'PUT /api/monitoring/alerts/{id}/assign': async (a, { staff }) => {
    const alert = await staff.post('/api/monitoring/alerts', { cod_anagrafe: a.persone[1], tipologia: 'altro', punteggio: 40, motivazione: 'Da assegnare' });
    ok(alert, 'alert by hand');
    return { path: `/api/monitoring/alerts/${alert.body.id}/assign`, body: { assegnatario: a.values.utente } };
  },
  'POST /api/legami': async (a) => ({ body: { cod_anagrafe_da: a.persone[0], cod_anagrafe_a: a.persone[1], tipo: 'familiare' } }),
  'POST /api/magic-link': async (a) => ({ body: { case_id: a.values.pratica_onboarding } }),
  'POST /api/movimenti': async (a) => ({
    body: { movimenti: [{ cod_rapporto: a.values.rapporto, cod_anagrafe: a.persone[0], data_operazione: today(), importo: 100, segno: 'entrata', chiave_esterna: 'percorso-1' }] },
  }),
  'POST /api/rapporti': async (a) => ({ body: { cod_anagrafe: a.persone[0], tipo: 'conto_corrente', soggetti: [{ cod_anagrafe: a.persone[1], ruolo: 'cointestatario' }] } }),
  'POST /api/risk/assessments': async (a) => ({ body: { cod_anagrafe: a.persone[0] } }),
  'POST /api/risk/cases/open-from-assessment': async (a) => ({ body: { cod_valutazione: a.values.valutazione } }),
  'POST /api/risk/policy/evaluate': async (a) => ({ body: { profilo: {}, versione_id: a.values.rischio_versione } }),
  'POST /api/risk/rules': async (a) => ({
    body: { fattore_id: a.values.rischio_fattore, codice: 'percorso_nuova', nome: 'Regola del percorso', punti: 1, condizione: { campo: 'cliente.eta_anni', op: 'lt', valore: 18 } },
  }),
  'PUT /api/risk/rules/{id}': async (a, { staff }) => {
    const rule = await staff.post('/api/risk/rules', {
      fattore_id: a.values.rischio_fattore, codice: 'percorso_modifica', nome: 'Regola da modificare', punti: 1, condizione: { campo: 'cliente.eta_anni', op: 'gt', valore: 90 },
    });
    ok(rule, 'draft rule');
    return { path: `/api/risk/rules/${rule.body.id}`, body: { fattore_id: a.values.rischio_fattore } };
  },
  'POST /api/risk/runs': async (a) => ({
    body: { tipo: 'simulazione', versione_id: a.values.rischio_versione },
    settle: async (accepted, staff) => {
      for (let i = 0; i < 240; i++) {
        const run = await staff.get(`/api/risk/runs/${accepted.body.id}`);
        if (run.body.stato !== 'running') return;
        await new Promise((r) => setTimeout(r, 500));
      }
      assert.fail(`risk run ${accepted.body.id} still running after 2 minutes`);
    },
  }),
  'POST /api/sos/reports': async (a) => ({
    body: {
      oggetto: 'Percorso dei riferimenti', cod_anagrafe: a.persone[0],
      content: {
        operazioni: [{ movimento_id: a.values.movimento, data_operazione: today(), importo: 100, valuta: 'EUR' }],
        soggetti: [{ cod_anagrafe: a.persone[1], nominativo: 'Esecutore del percorso', ruolo: 'esecutore' }],
        rapporti: [{ cod_rapporto: a.values.rapporto, descrizione: 'Conto del percorso' }],
      },
    },
  }),
  'POST /api/ubo': async (a) => ({ body: { cod_anagrafe: a.societa[1], cod_anagrafe_titolare: a.persone[0], percentuale: 30, tipo_controllo: 'proprieta_diretta' } }),
  'POST /api/v1/documenti/records': async (a) => ({ body: { cod_anagrafe: a.persone[0], tipo: 'altro', numero: 'DOC-3' } }),
  'POST /api/v1/esign/ceremony/start': async (a) => ({
    body: {
      signer: { nome: 'Mario Rossi', email: 'mario.rossi@example.test' }, document: { nome: 'dichiarazione.pdf', contenuto_base64: Buffer.from('%PDF-1.4 prova').toString('base64') },
      parent_workflow_id: a.values.workflow,
    },
  }),
  'POST /api/v1/kyb/verifiche': async (a) => ({ body: { cod_anagrafe: a.societa[1], documenti: [a.values.documento] } }),
  'POST /api/v1/kyc/verifiche': async (a) => ({ body: { cod_anagrafe: a.persone[1], documenti: [a.values.documento] } }),
  'POST /api/v1/kyb/verifiche/{cod_verifica}/struttura/nodi': async (a) => ({
    path: `/api/v1/kyb/verifiche/${a.kyb.cod}/struttura/nodi`, body: { tipo: 'persona_fisica', denominazione: 'Maria Rossi', cod_anagrafe: a.persone[0] },
  }),
  'POST /api/v1/kyb/verifiche/{cod_verifica}/struttura/archi': async (a) => ({
    path: `/api/v1/kyb/verifiche/${a.kyb.cod}/struttura/archi`, body: { da_nodo_id: a.values.nodo_struttura, a_nodo_id: a.kyb.companyNode, tipo: 'partecipazione', percentuale: 10 },
  }),
  'POST /api/v1/onboarding/case/{id}/documents': async (a) => ({
    path: `/api/v1/onboarding/case/${a.values.pratica_onboarding}/documents`, applicant: true, body: { tipo: 'documento_identita', riferimento: a.values.titolare_pratica },
  }),
  'POST /api/v1/questionari': async (a) => ({ body: { cod_anagrafe: a.persone[0], cdd_pratica: a.values.cdd_pratica } }),
  'POST /api/v1/travel-rule/transazioni': async (a) => ({
    body: {
      direzione: 'in_entrata', cod_anagrafe: a.persone[0], asset: 'ETH', rete: 'ETH', importo: '0.5', importo_eur: 1500, indirizzo_originatore: '0x1111111111111111111111111111111111111111',
      indirizzo_beneficiario: '0x2222222222222222222222222222222222222222', tipo_wallet: 'vasp', vasp_controparte: 'Krypto Bank AG', ivms101: ivms101Payload(),
    },
  }),
  'PUT /api/v1/screening/matches/{id}/assegna': async (a, { env }) => {
    const [subject] = await env.ownerDb('screening_subjects').insert({ id: randomUUID(), cod_azienda: a.tenant, tipo: 'person', nome: 'Soggetto del percorso', subject_key: `percorso-${a.tenant}`, wallets: [] }).returning('id');
    const [match] = await env.ownerDb('screening_matches').insert({
      id: randomUUID(), cod_azienda: a.tenant, subject_id: subject.id, list_name: 'un_sc_sanctions', entry_id: 'X1', entry_hash: 'h', score: 0.9, breakdown: JSON.stringify({}), stato: 'open',
    }).returning('id');
    return { path: `/api/v1/screening/matches/${match.id}/assegna`, body: { assegnatario: a.values.utente } };
  },
};

/** Where each kind of record is stored: table, column, and whether the value is the column's or inside it (a case's owners). */
const WHERE: Record<ReferenceTarget, [string, string, 'is' | 'inside']> = {
  utente: ['utenti', 'cod_utente', 'is'], soggetto: ['anagrafe', 'cod_anagrafe', 'is'], workflow: ['cases', 'workflow_id', 'is'], cdd_pratica: ['cdd_pratiche', 'id', 'is'],
  valutazione: ['rischio_valutazioni', 'cod_valutazione', 'is'], rischio_versione: ['rischio_versioni', 'id', 'is'], pratica_onboarding: ['onboarding_cases', 'id', 'is'],
  rapporto: ['rapporti', 'cod_rapporto', 'is'], documento: ['documenti', 'id', 'is'], rischio_fattore: ['rischio_fattori', 'id', 'is'], nodo_struttura: ['strutture_nodi', 'id', 'is'],
  titolare_pratica: ['onboarding_cases', 'ubo', 'inside'], cliente: ['anagrafe', 'cod_anagrafe', 'is'], movimento: ['movimenti', 'id', 'is'],
};

/** Rows of every tenant table, per tenant: what a refused call must leave as it was. */
async function rowCounts(owner: Knex, tenants: string[]): Promise<Record<string, number[]>> {
  const tables = await owner('information_schema.columns as c').join('pg_class as k', 'k.relname', 'c.table_name')
    .where({ 'c.table_schema': 'public', 'c.column_name': 'cod_azienda', 'k.relkind': 'r', 'k.relispartition': false }).distinct('c.table_name').pluck('c.table_name') as string[];
  const sql = tables.map((t) => `select '${t}' as t, ${tenants.map((_, i) => `count(*) filter (where cod_azienda = :t${i})::int as n${i}`).join(', ')} from "${t}"`).join(' union all ');
  const { rows } = await owner.raw(sql, Object.fromEntries(tenants.map((t, i) => [`t${i}`, t]))) as { rows: Record<string, number | string>[] };
  return Object.fromEntries(rows.map((r) => [String(r.t), tenants.map((_, i) => Number(r[`n${i}`]))]));
}

/** Waits until the tenants' rows stop changing (work a set-up or an accepted call left running), then answers them. */
async function settledCounts(owner: Knex, tenants: string[]): Promise<Record<string, number[]>> {
  let last = await rowCounts(owner, tenants);
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 800));
    const now = await rowCounts(owner, tenants);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

const changed = (before: Record<string, number[]>, after: Record<string, number[]>) =>
  Object.keys(after).filter((t) => JSON.stringify(before[t]) !== JSON.stringify(after[t])).map((t) => `${t} ${JSON.stringify(before[t])} -> ${JSON.stringify(after[t])}`);

describe('references inside request bodies: the walk over every API write', function () {
  this.timeout(900_000);
  let env: TestEnv;
  let writes: Operation[];
  /** The caller's tenant and the other one, each with one record of every kind. */
  let a: TenantRecords;
  let b: TenantRecords;

  /** Whether a record of the kind with this value is stored in the tenant (null: in any tenant). */
  const stored = async (target: ReferenceTarget, tenant: string | null, value: string) => {
    const [table, column, how] = WHERE[target];
    const q = env.ownerDb(table).whereRaw(how === 'is' ? `${column}::text = ?` : `${column}::text like ?`, [how === 'is' ? value : `%"${value}"%`]);
    return !!(await (tenant ? q.where({ cod_azienda: tenant }) : q).first(column));
  };

  before(async () => {
    env = await getTestEnv();
    const doc = (await env.client().get('/api/openapi.json')).body as OpenApiDoc;
    writes = operations(doc).filter((o) => isUnsafe(o.method) && o.path.startsWith('/api/') && o.body);
    [a, b] = [await tenantRecords(env), await tenantRecords(env)];
  });

  it('declares every field that looks like a reference, or says why it is not one', () => {
    const undeclared: string[] = [];
    const listed = new Set<string>();
    for (const op of writes) {
      const fields = bodyFields(op.body!.schema);
      const marked = fields.filter((f) => referenceOf(f)).map((f) => f.path.join('.'));
      for (const f of fields) {
        const looksLike = LOOKS_LIKE_A_REFERENCE.test(keyOf(f.path)) || f.schemas.some((s) => s.format === 'uuid');
        const name = `${opKey(op)} ${f.path.join('.')}`;
        // A list of references is declared on its items ('documenti.0').
        const declared = marked.some((m) => m === f.path.join('.') || m.startsWith(`${f.path.join('.')}.`));
        if (NOT_REFERENCES[name]) listed.add(name);
        else if (looksLike && !declared) undeclared.push(name);
      }
    }
    assert.deepEqual(undeclared, [], 'fields that look like references: declare them with refersTo() (src/db/references.ts) or list them in NOT_REFERENCES');
    assert.deepEqual(Object.keys(NOT_REFERENCES).filter((k) => !listed.has(k)), [], 'NOT_REFERENCES names fields no route has any more');
  });

  it('refuses, in every write, a reference to another tenant\'s record or to nothing, naming the field, and writes nothing', async () => {
    const missing = missingValues(a.tenant);
    // The values mean what the walk says: the other tenant's exist there and not in the caller's, the missing ones nowhere.
    for (const target of Object.keys(WHERE) as ReferenceTarget[]) {
      const [foreign, none] = [b.values[target], missing[target]];
      assert.deepEqual([await stored(target, b.tenant, foreign), await stored(target, a.tenant, foreign), await stored(target, null, none)], [true, false, false], `${target}: ${foreign} / ${none}`);
    }

    const withRefs = writes.map((op) => ({ op, refs: bodyFields(op.body!.schema).filter((f) => referenceOf(f)) })).filter((x) => x.refs.length);
    assert.deepEqual(withRefs.map((x) => opKey(x.op)).filter((k) => !FIXTURES[k]), [], 'routes with references but no valid call in FIXTURES');
    assert.ok(withRefs.length >= 20, `only ${withRefs.length} routes with references`);

    const failures: string[] = [];
    let probes = 0;
    for (const { op, refs } of withRefs) {
      const call = await FIXTURES[opKey(op)]!(a, { staff: a.staff, env });
      const client = call.applicant ? a.applicant : a.staff;
      const path = call.path ?? fillPath(op.path, () => '');
      const multipart = op.body!.mediaType.startsWith('multipart/');
      // A multipart form carries the CSRF token (X-CSRF-Token, as an API client sends it), read from a public page with a form.
      const token = multipart ? await client.csrfToken('/onboarding/nuovo-link') : '';
      const send = (body: Record<string, unknown>) => {
        if (!multipart) return client.request(op.method, path, { json: body });
        const fd = new FormData();
        for (const [k, v] of Object.entries(body)) fd.append(k, String(v));
        fd.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'documento.png');
        return client.request(op.method, path, { body: fd, headers: { 'x-csrf-token': token } });
      };
      let before = await settledCounts(env.ownerDb, [a.tenant, b.tenant]);
      for (const field of refs) {
        const target = referenceOf(field) as ReferenceTarget;
        const answers: Record<string, string> = {};
        for (const [what, value] of [['another tenant\'s', b.values[target]], ['no', missing[target]]] as const) {
          const where = `${opKey(op)} ${field.path.join('.')} naming ${what} ${target} (${value})`;
          const r = await send(withValueAt(call.body, field.path, value) as Record<string, unknown>);
          probes += 1;
          const named = (r.body?.errors as { path: string; message: string }[] | undefined)?.find((e) => e.path === field.path.join('.'));
          if (r.status !== 422 || !/problem\+json/.test(r.headers.get('content-type') ?? '') || !named) {
            failures.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
          } else answers[what] = named.message.replaceAll(value, '…');
          const after = await rowCounts(env.ownerDb, [a.tenant, b.tenant]);
          const diff = changed(before, after);
          if (diff.length) failures.push(`${where} wrote: ${diff.join(', ')}`);
          before = after;
        }
        if (Object.keys(answers).length === 2 && answers['another tenant\'s'] !== answers.no) {
          failures.push(`${opKey(op)} ${field.path.join('.')}: another tenant's record and no record answer differently (${JSON.stringify(answers)})`);
        }
      }
      // The same body with the caller's own records is accepted: the refusals above were the references'.
      const accepted = await send(call.body);
      if (accepted.status < 200 || accepted.status >= 300) failures.push(`${opKey(op)} with the caller's own records: ${accepted.status} ${accepted.text.slice(0, 300)}`);
      else await call.settle?.(accepted, client);
    }
    assert.deepEqual(failures, [], `${failures.length} of ${probes} probes`);
  });

  it('an EDD case names a CDD task of its own customer only', async () => {
    const other = await a.staff.post(`/api/cdd/initiate/${a.persone[1]}`, {});
    assert.ok(other.status === 200 || other.status === 201, other.text);
    const before = await env.ownerDb('edd_casi').where({ cod_azienda: a.tenant }).count<{ n: string }[]>({ n: '*' });
    const r = await a.staff.post('/api/edd', { cod_anagrafe: a.persone[0], motivi: ['pep'], cdd_pratica_id: other.body.id });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.errors[0].path, 'cdd_pratica_id');
    assert.match(r.body.errors[0].message, /altro cliente/);
    const after = await env.ownerDb('edd_casi').where({ cod_azienda: a.tenant }).count<{ n: string }[]>({ n: '*' });
    assert.deepEqual(after, before, 'no case opened');
  });
});
