import assert from 'node:assert/strict';
import { TEXT_MESSAGES } from '../../src/http/text-field';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const newCase = (over: Record<string, unknown> = {}) => ({ titolo: 'Versamenti frazionati', descrizione: 'Riga uno\nRiga due\tcon tabulazione', tipo: 'indagine', priorita: 'media', ...over });
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('free text: control characters and meaningless input are refused next to the field', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let analyst: TestClient;

  before(async () => {
    env = await getTestEnv();
    const tenant = await env.createTenant();
    analyst = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
  });

  const errorsOf = (body: { errors?: { path: string; message: string }[] }) => Object.fromEntries((body.errors ?? []).map((e) => [e.path, e.message]));

  it('the API answers 422 problem+json naming the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ titolo: 'x' }, 'titolo', TEXT_MESSAGES.troppoCorto(3)],
      [{ titolo: '?!… --' }, 'titolo', TEXT_MESSAGES.senzaSenso],
      [{ titolo: '\u0001\u0002\u0003' }, 'titolo', TEXT_MESSAGES.controlli],
      [{ titolo: 'Titolo\u0007con campanello' }, 'titolo', TEXT_MESSAGES.controlli],
      [{ titolo: 'Titolo su\ndue righe' }, 'titolo', TEXT_MESSAGES.aCapo],
      [{ descrizione: 'Testo\u001bcon escape' }, 'descrizione', TEXT_MESSAGES.controlli],
      [{ descrizione: '   ...   ' }, 'descrizione', TEXT_MESSAGES.senzaSenso],
    ];
    for (const [over, field, message] of cases) {
      const r = await analyst.post('/api/cases', newCase(over));
      assert.equal(r.status, 422, JSON.stringify(over));
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.deepEqual(errorsOf(r.body), { [field]: message }, JSON.stringify(over));
    }
    // A multi-line field keeps its line breaks and tabs.
    const ok = await analyst.post('/api/cases', newCase());
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.descrizione, 'Riga uno\nRiga due\tcon tabulazione');

    const note = await analyst.post(`/api/cases/${ok.body.id}/events`, { tipo: 'nota', testo: 'Nota\u0008' });
    assert.equal(note.status, 422);
    assert.deepEqual(errorsOf(note.body), { testo: TEXT_MESSAGES.controlli });
    const close = await analyst.put(`/api/cases/${ok.body.id}/close`, { esito: 'archiviato', motivazione: '....' });
    assert.equal(close.status, 422);
    assert.deepEqual(errorsOf(close.body), { motivazione: TEXT_MESSAGES.senzaSenso });
  });

  it('the page shows the message next to the field and keeps what was typed', async () => {
    const typed = 'Descrizione già scritta';
    const short = await analyst.submitForm('/casi/nuovo', { titolo: 'x', descrizione: typed, tipo: 'indagine', priorita: 'alta' });
    assert.equal(short.status, 422);
    assert.match(short.text, new RegExp(`id="f-titolo-err">${esc(TEXT_MESSAGES.troppoCorto(3))}<`));
    assert.match(short.text, /id="f-titolo"[^>]*aria-invalid="true"/);
    assert.match(short.text, new RegExp(esc(typed)), 'what was typed is kept');

    const control = await analyst.submitForm('/casi/nuovo', { titolo: 'Caso \u0001\u0002', descrizione: '', tipo: 'indagine', priorita: 'alta' });
    assert.equal(control.status, 422);
    assert.match(control.text, new RegExp(`id="f-titolo-err">${esc(TEXT_MESSAGES.controlli)}<`));

    const punctuation = await analyst.submitForm('/casi/nuovo', { titolo: 'Titolo valido', descrizione: '!!! ???', tipo: 'indagine', priorita: 'alta' });
    assert.equal(punctuation.status, 422);
    assert.match(punctuation.text, new RegExp(`id="f-descrizione-err">${esc(TEXT_MESSAGES.senzaSenso)}<`));

    const ok = await analyst.submitForm('/casi/nuovo', { titolo: 'Caso dal modulo', descrizione: 'Prima riga\nseconda riga', tipo: 'indagine', priorita: 'alta' });
    assert.equal(ok.status, 302, ok.text);
  });
});
