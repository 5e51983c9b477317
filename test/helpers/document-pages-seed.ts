import assert from 'node:assert/strict';
import type { TestEnv } from './env';
import type { TestClient } from './http-client';
import { minimalJpeg, minimalPdf } from './document-files';
import { passportMrz } from './document-mrz';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

/**
 * Document records (issue 13, docs) for the page catalogue: a person's passport uploaded,
 * replaced by a renewed one (two versions) and verified, and an identity card whose
 * verification failed (a corrupted zone): the list and both detail pages have something to show.
 */
export async function seedDocumentPages(env: TestEnv, tenant: string, co: TestClient): Promise<{ verified: string; failed: string }> {
  await env.ownerDb('anagrafe').insert({
    cod_azienda: tenant, cod_anagrafe: 'ANA-DOC001', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Bianchi', nome: 'Giulia', cognome: 'Bianchi',
    data_nascita: '1990-03-25', codice_fiscale: 'BNCGLI90C65H501X', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
  });
  const token = await co.csrfToken('/');
  const send = async (path: string, fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    fd.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    const r = await co.request('POST', path, { body: fd, headers: { 'x-csrf-token': token } });
    assert.ok(r.status === 201 || r.status === 200, r.text);
    return r.body as { cod_documento: string };
  };
  const mrz = (numero: string, scadenza: string) => passportMrz({ stato: 'ITA', cognome: 'Bianchi', nome: 'Giulia', numero, nazionalita: 'ITA', nascita: '1990-03-25', sesso: 'F', scadenza });
  const API = '/api/v1/documenti/records';
  const first = day(200);
  const passport = await send(API, {
    cod_anagrafe: 'ANA-DOC001', tipo: 'passaporto', numero: 'YA4445556', autorita_rilascio: 'Questura di Roma', paese_rilascio: 'IT',
    data_rilascio: day(-3400), data_scadenza: first, mrz: mrz('YA4445556', first),
  }, { name: 'passaporto-bianchi.pdf', type: 'application/pdf', bytes: minimalPdf() });
  const renewed = day(3600);
  await send(`${API}/${passport.cod_documento}/sostituisci`, {
    motivo: 'Passaporto rinnovato', numero: 'YB7778889', data_rilascio: day(-5), data_scadenza: renewed, mrz: mrz('YB7778889', renewed),
  }, { name: 'passaporto-rinnovato.jpg', type: 'image/jpeg', bytes: minimalJpeg(1200, 800) });
  assert.equal((await co.post(`${API}/${passport.cod_documento}/verifica`, {})).status, 200);
  const card = await send(API, {
    cod_anagrafe: 'ANA-DOC001', tipo: 'carta_identita', numero: 'CA12345BB', autorita_rilascio: 'Comune di Roma', paese_rilascio: 'IT',
    data_rilascio: day(-300), data_scadenza: day(3000),
    mrz: 'C<ITACA12345BB8<<<<<<<<<<<<<<<\n9003255F3504018ITA<<<<<<<<<<<0\nBIANCHI<<GIULIA<<<<<<<<<<<<<<<',
  }, { name: 'carta-identita.pdf', type: 'application/pdf', bytes: minimalPdf(2) });
  assert.equal((await co.post(`${API}/${card.cod_documento}/verifica`, {})).status, 200);
  return { verified: passport.cod_documento, failed: card.cod_documento };
}
