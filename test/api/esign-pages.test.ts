import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { wrongCode } from '../helpers/mailbox';
import type { TestClient } from '../helpers/http-client';

describe('e-signature ceremony pages (signer, no account)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let co: TestClient;
  let outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    const tenant = await env.createTenant();
    const other = await env.createTenant();
    co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    outsider = await env.login(await env.createUser({ tenant: other, roles: ['co'] }));
  });

  it('walks the signer through terms, document and code with forms (PRG, CSRF), then shows the receipt', async () => {
    const s = await co.post('/api/v1/esign/ceremony/start', {
      signer: { nome: 'Lucia Bianchi', email: 'lucia@example.test' }, document: { nome: 'mandato.pdf', contenuto_base64: Buffer.from('Mandato').toString('base64') },
    });
    assert.equal(s.status, 201, s.text);
    const { id, token } = s.body as { id: string; token: string };
    const signer = env.client();
    const page = `/esign/ceremony/${id}?token=${token}`;

    let r = await signer.get(page, { accept: 'text/html' });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('cache-control') ?? '', /no-store/, 'a page reached with a bearer token in its URL is never cached');
    assert.match(r.text, /Accetto le condizioni/);
    assert.match(r.text, /acconsento a sottoscriverlo/);
    assert.match(r.text, /data-scadenza>Il link scade il/, 'while open, the page says when the link expires');
    assert.match(r.text, /data-brand="[A-Z0-9]+"/, 'the page names the tenant that asks for the signature');
    assert.doesNotMatch(r.text, /data-torna/, 'the signer has no staff way back');

    // Staff reading the same ceremony: no signer forms, a way back.
    let staffPage = await co.get(`/esign/ceremony/${id}`, { accept: 'text/html' });
    assert.equal(staffPage.status, 200);
    assert.match(staffPage.text, /<a class="link-back" href="\/" data-torna>← Torna alla home<\/a>/);
    assert.match(staffPage.text, /data-vista-personale/);
    assert.doesNotMatch(staffPage.text, /action="\/esign\/ceremony\/[^"]+\/terms"/);

    r = await signer.submitForm(`/esign/ceremony/${id}/terms`, { token }, page);
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), page);
    const after = await env.mailbox.cursor();
    r = await signer.submitForm(`/esign/ceremony/${id}/present`, { token }, page);
    assert.equal(r.status, 302);
    r = await signer.get(page, { accept: 'text/html' });
    assert.match(r.text, /mandato\.pdf/);
    assert.match(r.text, /[0-9a-f]{64}/);
    assert.match(r.text, /name="otp"/);
    assert.match(r.text, /Inviami un nuovo codice/, 'the signer may ask for a new code');
    const code = await env.mailbox.otp('lucia@example.test', after);

    // Asking again at once is refused with the reason on the page; the code stays valid.
    r = await signer.submitForm(`/esign/ceremony/${id}/resend`, { token }, page);
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), page);
    r = await signer.get(page, { accept: 'text/html' });
    assert.match(r.text, /potrai chiederne un altro tra \d+ secondi/);

    r = await signer.submitForm(`/esign/ceremony/${id}/sign`, { token, otp: 'abc' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /Inserisci il codice di 6 cifre/);
    r = await signer.submitForm(`/esign/ceremony/${id}/sign`, { token, otp: wrongCode(code) }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /restano 2 tentativi/);
    assert.ok(r.text.includes(`value="${wrongCode(code)}"`), 'what was typed is kept');
    r = await signer.submitForm(`/esign/ceremony/${id}/sign`, { token, otp: code }, page);
    assert.equal(r.status, 302);
    r = await signer.get(page, { accept: 'text/html' });
    assert.match(r.text, /Documento firmato/);
    // Signed: the page shows the signed state and the receipt, and no longer talks of the link expiring.
    assert.match(r.text, /data-firmato/);
    assert.ok(r.text.includes(`href="/esign/receipt/${id}?token=${token}"`), 'the receipt link');
    assert.doesNotMatch(r.text, /scade/);
    staffPage = await co.get(`/esign/ceremony/${id}`, { accept: 'text/html' });
    assert.match(staffPage.text, /data-firmato/);
    assert.ok(staffPage.text.includes(`href="/esign/receipt/${id}"`), 'staff reach the receipt too');
    assert.doesNotMatch(staffPage.text, /scade/);

    r = await signer.get(`/esign/receipt/${id}?token=${token}`, { accept: 'text/html' });
    assert.equal(r.status, 200);
    assert.match(r.text, /Scarica la ricevuta \(PDF\)/);
    const pdfHref = r.text.match(/href="([^"]+receipt[^"]*)"/)![1]!.replace(/&amp;/g, '&');
    const pdf = await signer.get(pdfHref);
    assert.ok(pdf.text.startsWith('%PDF'));
    assert.equal((await co.get(`/esign/receipt/${id}`, { accept: 'text/html' })).status, 200);
  });

  it('hides the ceremony without the right token, to other tenants and without CSRF', async () => {
    const s = await co.post('/api/v1/esign/ceremony/start', {
      signer: { nome: 'X', email: 'x@example.test' }, document: { nome: 'd.pdf', contenuto_base64: 'QUJD' },
    });
    const { id, token } = s.body as { id: string; token: string };
    const anon = env.client();
    assert.equal((await anon.get(`/esign/ceremony/${id}?token=wrongwrongwrong`, { accept: 'text/html' })).status, 404);
    assert.equal((await anon.get(`/esign/ceremony/${id}`, { accept: 'text/html' })).status, 404);
    assert.equal((await anon.get(`/esign/receipt/${id}`, { accept: 'text/html' })).status, 404);
    assert.equal((await outsider.get(`/esign/receipt/${id}`, { accept: 'text/html' })).status, 404);
    const noCsrf = await anon.request('POST', `/esign/ceremony/${id}/terms`, { form: { token }, headers: { accept: 'text/html' } });
    assert.equal(noCsrf.status, 403);
    assert.equal((await anon.submitForm(`/esign/ceremony/${id}/terms`, { token: 'wrongwrongwrong' }, `/esign/ceremony/${id}?token=${token}`)).status, 404);
  });
});
