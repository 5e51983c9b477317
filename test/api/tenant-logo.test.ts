import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { PNG } from './onboarding-fixtures';

const html = { accept: 'text/html' };

describe('tenant logo: upload by the tenant admin, shown on the public pages', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let admin: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    admin = await env.login(await env.createUser({ tenant, roles: ['admin'] }));
  });

  /** The logo form as a browser posts it: multipart, the CSRF token in the query string. */
  const uploadLogo = async (c: TestClient, bytes: Uint8Array, name: string, type: string, query = '') => {
    const token = await c.csrfToken('/organizzazione/configurazione/logo');
    const fd = new FormData();
    fd.append('logo', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
    return c.request('POST', `/organizzazione/configurazione/logo?${query}_csrf=${encodeURIComponent(token)}`, { body: fd, headers: html });
  };

  it('refuses a renamed text file, an SVG and a file over 200 KB with a message next to the field', async () => {
    let r = await admin.get('/organizzazione/configurazione', html);
    assert.match(r.text, /href="\/organizzazione\/configurazione\/logo"/, 'the configuration page leads to the logo');
    r = await admin.get('/organizzazione/configurazione/logo', html);
    assert.equal(r.status, 200);
    assert.match(r.text, /data-logo-assente/);

    r = await uploadLogo(admin, Buffer.from('non sono una immagine\n'), 'logo.png', 'image/png');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-logo-err">Formato non ammesso: carica un’immagine PNG, JPEG o WebP/);
    assert.match(r.text, /aria-describedby="f-logo-hint f-logo-err"/);

    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    r = await uploadLogo(admin, svg, 'logo.svg', 'image/svg+xml');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-logo-err">Formato non ammesso/);

    const big = Buffer.alloc(200 * 1024 + 1, 0);
    PNG.copy(big);
    r = await uploadLogo(admin, big, 'grande.png', 'image/png');
    assert.equal(r.status, 413);
    assert.match(r.text, /id="f-logo-err">Il file supera la dimensione massima di 200 KB/);

    assert.equal((await env.client().get(`/aziende/${tenant}/logo`)).status, 404, 'nothing was stored');
  });

  it('stores a PNG and serves it publicly with its type, nosniff and an ETag; the public pages show name and logo', async () => {
    const anon = env.client();
    let r = await anon.get(`/aziende/${tenant}/logo`);
    assert.equal(r.status, 404);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');

    r = await uploadLogo(admin, PNG, 'logo.png', 'image/png');
    assert.equal(r.status, 302, r.text.slice(0, 500));
    r = await admin.get('/organizzazione/configurazione/logo', html);
    assert.match(r.text, /data-logo-attuale/);

    const res = await fetch(`${env.baseUrl}/aziende/${tenant}/logo`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('set-cookie'), null, 'a cacheable public image carries no cookie');
    const etag = res.headers.get('etag');
    assert.ok(etag && /^"[0-9a-f]{64}"$/.test(etag), `ETag ${etag}`);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);
    const again = await fetch(`${env.baseUrl}/aziende/${tenant}/logo`, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);

    // The landing speaks for the tenant: its name (whose own full stop is not doubled) and its logo, not the vendor's name.
    r = await anon.get(`/onboarding/?azienda=${tenant}`, html);
    assert.equal(r.status, 200);
    const name = `Azienda di prova ${tenant} S.r.l.`;
    assert.ok(r.text.includes(`<span class="public-brand-name h2 mb-0">${name}</span>`), 'the header names the tenant');
    assert.match(r.text, new RegExp(`<img class="public-brand-logo" src="/aziende/${tenant}/logo\\?v=[0-9a-f]{16}"`));
    assert.match(r.text, new RegExp(`<title>[^<]*· ${name.replace(/\./g, '\\.')}</title>`));
    assert.ok(r.text.includes(`Titolare del trattamento è ${name} Trattiamo`), 'one full stop after a name that ends with one');
    assert.doesNotMatch(r.text, /S\.r\.l\.\./);
    assert.doesNotMatch(r.text, /Compliance AML/);

    // Another tenant's admin cannot touch this logo.
    const other = await env.createTenant();
    const otherAdmin = await env.login(await env.createUser({ tenant: other, roles: ['admin'] }));
    r = await uploadLogo(otherAdmin, PNG, 'x.png', 'image/png', `cod_azienda=${tenant}&`);
    assert.equal(r.status, 404);

    r = await admin.submitForm('/organizzazione/configurazione/logo/elimina', {}, '/organizzazione/configurazione/logo');
    assert.equal(r.status, 302);
    assert.equal((await anon.get(`/aziende/${tenant}/logo`)).status, 404);
    r = await anon.get(`/onboarding/?azienda=${tenant}`, html);
    assert.doesNotMatch(r.text, /public-brand-logo/);
    assert.ok(r.text.includes(name));
  });
});
