import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app';
import { AREAS } from '../../src/areas';
import { defineArea } from '../../src/kit/area';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import { TestClient } from '../helpers/http-client';
import { nextTotpCode } from '../helpers/totp';

interface Tile { key: string; label: string; count: number | null; href: string | null; text: string }

/** The home's tiles as a person reads them: area and kind, label, number, link. */
function tilesOf(html: string): Tile[] {
  return html.split('data-home-tile="').slice(1).map((chunk) => {
    // The card ends with its hint, the first div after the "mt-1" one.
    const hintAt = chunk.indexOf('mt-1">');
    const card = chunk.slice(0, chunk.indexOf('</div>', hintAt) + 6);
    const count = card.match(/data-count="(\d+)"/);
    const link = card.match(/<a href="([^"]+)" class="stretched-link[^"]*">([^<]+)<\/a>/);
    const plain = card.match(/class="fw-medium">\s*([^<]+?)\s*</);
    return {
      key: card.slice(0, card.indexOf('"')),
      label: (link?.[2] ?? plain?.[1] ?? '').trim(),
      count: count ? Number(count[1]) : null,
      href: link ? link[1]!.replaceAll('&amp;', '&') : null,
      text: card.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '),
    };
  });
}

const tile = (tiles: Tile[], label: string) => tiles.find((t) => t.label === label);
const countOf = (tiles: Tile[], label: string) => {
  const t = tile(tiles, label);
  assert.ok(t, `no tile "${label}" among ${tiles.map((x) => x.label).join(', ')}`);
  return t.count;
};

describe('staff home: what waits for this user in this tenant', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co1: TestUser;
  let co2: TestUser;
  let analyst: TestUser;
  let auditor: TestUser;
  let admin: TestUser;

  const insertCase = (cod: string, over: Record<string, unknown>) => env.ownerDb('cases').insert({
    id: randomUUID(), cod_azienda: cod, titolo: 'Caso di prova', tipo: 'indagine', priorita: 'media', stato: 'open', opened_by: 'seed',
    sla_days: 30, sla_due_at: new Date(Date.now() + 86_400_000), overdue: false, workflow_id: `case:${randomUUID()}`, ...over,
  });

  async function insertMatch(cod: string, over: Record<string, unknown>) {
    const subject = randomUUID();
    await env.ownerDb('screening_subjects').insert({ id: subject, cod_azienda: cod, tipo: 'person', nome: 'Mario Bianchi' });
    await env.ownerDb('screening_matches').insert({
      id: randomUUID(), cod_azienda: cod, subject_id: subject, list_name: 'EU', entry_id: randomUUID(), entry_hash: 'h', score: 0.97, stato: 'open', ...over,
    });
  }

  const insertOnboarding = (cod: string, over: Record<string, unknown>) => env.ownerDb('onboarding_cases').insert({
    id: randomUUID(), cod_azienda: cod, stato: 'in_review', tipo_soggetto: 'persona_fisica', email: 'cliente@example.test',
    anagrafe: { nome: 'Anna', cognome: 'Verdi' }, workflow_id: `onboarding:${randomUUID()}`, ...over,
  });

  /** The same work, in this tenant and in another one where the same users' ids appear (they must never count). */
  async function seed(cod: string) {
    await insertCase(cod, { assegnatario: co1.cod_utente });
    await insertCase(cod, { assegnatario: co1.cod_utente, stato: 'escalated', overdue: true, sla_due_at: new Date(Date.now() - 86_400_000) });
    // Closed: neither assigned work nor late any more, even with its overdue flag.
    await insertCase(cod, { assegnatario: co1.cod_utente, stato: 'closed', overdue: true, closed_at: new Date() });
    await insertCase(cod, { assegnatario: analyst.cod_utente });
    // Closures: one asked by co2 (co1 confirms it), one asked by co1 (only co2 may confirm it).
    await insertCase(cod, { stato: 'closing', closing_requested_by: co2.cod_utente, esito: 'archiviato', motivazione_chiusura: 'Nessun elemento' });
    await insertCase(cod, { stato: 'closing', closing_requested_by: co1.cod_utente, esito: 'archiviato', motivazione_chiusura: 'Nessun elemento' });
    // Screening: one match assigned to the analyst, one whose resolution the analyst asked (waiting for someone else).
    await insertMatch(cod, { stato: 'assigned', assegnatario: analyst.cod_utente });
    await insertMatch(cod, { stato: 'assigned', assegnatario: analyst.cod_utente, resolution_requested_by: analyst.cod_utente, esito_richiesto: 'false_positive', resolution_reason: 'Data di nascita diversa' });
    await insertMatch(cod, { stato: 'open' });
    // Onboarding: approved once by the analyst, waiting for a compliance officer's second approval.
    await insertOnboarding(cod, { stato: 'pending_second_approval', approved_by: analyst.cod_utente, approved_by_username: analyst.username });
    await insertOnboarding(cod, { stato: 'in_review' });
    await env.ownerDb('notifications').insert({ id: randomUUID(), cod_azienda: cod, cod_utente: co1.cod_utente, tipo: 'info', titolo: 'Caso assegnato', messaggio: '' });
  }

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [co1, co2, analyst, auditor, admin] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['analyst'] }),
      env.createUser({ tenant, roles: ['auditor'] }), env.createUser({ tenant, roles: ['admin'] }),
    ]);
    await seed(tenant);
    await seed(other);
    // Another tenant's case "assigned" to co1's id and late: row-level security and the tenant predicate keep it out.
    await insertCase(other, { assegnatario: co1.cod_utente, overdue: true });
    await env.ownerDb('outbox_messages').insert({
      id: randomUUID(), cod_azienda: tenant, kind: 'otp', recipient: 'x@example.test', subject: 'Codice', status: 'failed', body_sealed: 'x', dedup_key: randomUUID(), message_id: `m-${randomUUID()}`,
    });
  });

  // One sign-in per user: a TOTP code is single-use per 30 s step.
  const signedIn = new Map<string, Promise<TestClient>>();
  const clientOf = (u: TestUser) => {
    if (!signedIn.has(u.username)) signedIn.set(u.username, env.login(u));
    return signedIn.get(u.username)!;
  };

  const homeOf = async (u: TestUser, path = '/') => {
    const r = await (await clientOf(u)).get(path, { accept: 'text/html' });
    assert.equal(r.status, 200, r.text.slice(0, 500));
    return { tiles: tilesOf(r.text), html: r.text };
  };

  it('shows a compliance officer their cases, the closures and approvals waiting for them, and what is late', async () => {
    const { tiles, html } = await homeOf(co1);
    assert.match(html, /Per te/);
    assert.match(html, /Conferme in attesa di te/);
    assert.equal(countOf(tiles, 'Casi assegnati a te'), 2, 'the open and the escalated case, not the closed one nor the other tenant\'s');
    assert.equal(tile(tiles, 'Casi assegnati a te')!.href, '/casi?assegnatario=me&aperti=true&sort=sla_due_at');
    assert.equal(countOf(tiles, 'Chiusure di casi da confermare'), 1, 'the closure asked by co2, not the one co1 asked');
    assert.equal(countOf(tiles, 'Casi oltre la scadenza SLA'), 1, 'the escalated late case only (the closed one is done)');
    assert.equal(countOf(tiles, 'Approvazioni di onboarding da confermare'), 1);
    assert.equal(countOf(tiles, 'Risoluzioni di corrispondenze da confermare'), 1, 'the analyst\'s request waits for someone else');
    assert.equal(countOf(tiles, 'Notifiche non lette'), 1);
    assert.equal(countOf(tiles, 'Casi in chiusura'), 2);
    assert.equal(countOf(tiles, 'Corrispondenze assegnate a te'), 0);
    assert.match(tile(tiles, 'Corrispondenze assegnate a te')!.text, /Nessuna corrispondenza assegnata a te/, 'a zero says so');
    assert.equal(tile(tiles, 'Messaggi in uscita non consegnati'), undefined, 'outgoing messages are the administrators\'');
    // The other compliance officer sees the mirror image of the closures.
    const second = await homeOf(co2);
    assert.equal(countOf(second.tiles, 'Chiusure di casi da confermare'), 1);
    assert.equal(countOf(second.tiles, 'Casi assegnati a te'), 0);
    assert.match(tile(second.tiles, 'Casi assegnati a te')!.text, /Nessun caso assegnato a te/);
  });

  it('links each tile to a list that shows exactly the counted items', async () => {
    const c = await clientOf(co1);
    const mine = await c.get('/api/cases?assegnatario=me&aperti=true');
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.total, 2);
    const late = await c.get('/api/cases?overdue=true&aperti=true');
    assert.equal(late.body.total, 1);
    const page = await c.get('/casi?assegnatario=me&aperti=true&sort=sla_due_at', { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /<option value="me" selected>Assegnati a me<\/option>/);
    const a = await clientOf(analyst);
    const matches = await a.get('/screening?assegnatario=me&stato=assigned&da_confermare=false', { accept: 'text/html' });
    assert.equal(matches.status, 200);
    assert.equal((await a.get('/api/v1/screening/matches?assegnatario=me&stato=assigned&da_confermare=false')).body.total, 1);
    assert.equal((await a.get('/api/v1/screening/matches?da_confermare=true')).body.total, 1);
  });

  it('shows an analyst their work and not the compliance officer\'s confirmations', async () => {
    const { tiles, html } = await homeOf(analyst);
    assert.equal(countOf(tiles, 'Casi assegnati a te'), 1);
    assert.equal(countOf(tiles, 'Corrispondenze assegnate a te'), 1, 'the match whose resolution is already asked waits for someone else');
    assert.equal(tile(tiles, 'Chiusure di casi da confermare'), undefined, 'closures are confirmed by a compliance officer');
    assert.equal(tile(tiles, 'Approvazioni di onboarding da confermare'), undefined);
    assert.equal(countOf(tiles, 'Risoluzioni di corrispondenze da confermare'), 0, 'never their own request');
    assert.equal(countOf(tiles, 'Pratiche di onboarding da esaminare'), 1);
    assert.ok(tile(tiles, 'Pratiche di onboarding da esaminare')!.key.endsWith(':due'), 'a reviewer has it to do');
    assert.doesNotMatch(html, /Nessuna attività da mostrare/);
  });

  it('shows an auditor the overview and what is late, nothing assigned nor to confirm', async () => {
    const { tiles, html } = await homeOf(auditor);
    assert.equal(tile(tiles, 'Casi assegnati a te'), undefined, 'an auditor works no case');
    assert.equal(tile(tiles, 'Corrispondenze assegnate a te'), undefined);
    assert.doesNotMatch(html, /Conferme in attesa di te/);
    assert.equal(countOf(tiles, 'Casi oltre la scadenza SLA'), 1);
    assert.equal(countOf(tiles, 'Casi aperti'), 2);
    assert.equal(countOf(tiles, 'Pratiche di onboarding da esaminare'), 1);
    assert.ok(tile(tiles, 'Pratiche di onboarding da esaminare')!.key.endsWith(':overview'));
    assert.equal(countOf(tiles, 'Revisioni di adeguata verifica scadute'), 0);
    assert.equal(tile(tiles, 'Revisioni di adeguata verifica scadute')!.href, '/cdd/refresh-queue?finestra=scadute', 'the refresh queue, filtered as the tile counts');
    assert.doesNotMatch(tile(tiles, 'Revisioni di adeguata verifica scadute')!.text, /in preparazione/);
  });

  it('shows an administrator the failed outgoing messages of the tenant', async () => {
    const { tiles } = await homeOf(admin, '/dashboard');
    assert.equal(countOf(tiles, 'Messaggi in uscita non consegnati'), 1);
    assert.equal(tile(tiles, 'Messaggi in uscita non consegnati')!.href, '/organizzazione/messaggi?status=failed');
  });

  it('serves the same dashboard at /dashboard, which the navigation no longer calls in preparation', async () => {
    const { tiles, html } = await homeOf(co1, '/dashboard');
    assert.equal(countOf(tiles, 'Casi assegnati a te'), 2);
    assert.match(html, /href="\/dashboard"[^>]*>Dashboard<\/a>/);
    assert.match(html, /href="\/indicatori"[^>]*>Indicatori di anomalia <span class="badge[^"]*">in preparazione<\/span>/);
    assert.match(html, /href="\/anagrafe"[^>]*>Anagrafe<\/a>/, 'a built area has no badge');
  });

  it('keeps the tenant switch for a superadmin without a tenant, and shows no tiles there', async () => {
    const su = await env.createUser({ tenant: null, roles: ['superadmin'] });
    const { tiles, html } = await homeOf(su);
    assert.deepEqual(tiles, []);
    assert.match(html, /Azienda in cui operare/);
    assert.match(html, /Scegli un’azienda/);
  });

  it('shows an area that fails or does not answer as a tile that could not be read, never a 500', async () => {
    const broken = defineArea({ name: 'broken', label: 'Area guasta', home: () => Promise.reject(new Error('boom')) });
    const slow = defineArea({ name: 'slow', label: 'Area lenta', home: () => new Promise(() => undefined) });
    const { app } = createApp(env.deps, [...AREAS, broken, slow]);
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const c = new TestClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      // Signed in on this app (sessions live in the database): a user of its own, so no TOTP step is reused.
      const co3 = await env.createUser({ tenant, roles: ['co'] });
      const login = await c.request('POST', '/auth/login', { json: { username: co3.username, password: co3.password, totp: nextTotpCode(co3.totpSecret) } });
      assert.equal(login.status, 200, login.text);
      const r = await c.get('/', { accept: 'text/html' });
      assert.equal(r.status, 200);
      const tiles = tilesOf(r.text);
      for (const label of ['Area guasta', 'Area lenta']) {
        const t = tile(tiles, label);
        assert.ok(t, label);
        assert.equal(t.count, null);
        assert.match(t.text, /Dati non disponibili/);
        assert.match(t.text, /Non è stato possibile leggere i dati/);
      }
      assert.equal(countOf(tiles, 'Chiusure di casi da confermare'), 2, 'the other areas still answer (co3 asked neither closure)');
    } finally {
      server.close();
    }
  });
});
