import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { startOnboarding } from '../../src/domains/onboarding/onboarding.commands';
import { signMagicLink } from '../../src/domains/onboarding/onboarding.tokens';
import type { SubjectType } from '../../workflows/onboarding/onboarding.contract';
import { ONBOARDING_DEFAULTS } from '../../workflows/onboarding/onboarding.machine';
import type { TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/** Shared set-up of the applicant API tests: a case with its applicant's session, files, complete sections. */

let seq = 0;
export const uniqueEmail = (what = 'cliente') => `${what}.${Date.now().toString(36)}${++seq}@example.test`;

/** A resume link's token for a case, with its single-use row (as the platform issues one). */
export async function linkToken(env: TestEnv, tenant: string, caseId: string, opts: { now?: Date; ttlHours?: number } = {}) {
  const l = await signMagicLink(env.deps.config.sessionSecret, { caseId, codAzienda: tenant, purpose: 'resume', ttlHours: opts.ttlHours ?? 72, now: opts.now });
  await env.ownerDb('onboarding_links').insert({ jti: l.jti, cod_azienda: tenant, case_id: caseId, purpose: 'resume', expires_at: l.expiresAt });
  return l.token;
}

/** Opens a case (as the public form does) and gives a fresh client the applicant's session through a resume link. */
export async function openCase(env: TestEnv, tenant: string, opts: { email?: string; subjectType?: SubjectType } = {}) {
  const email = opts.email ?? uniqueEmail();
  const { caseId } = await startOnboarding({ client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue }, {
    codAzienda: tenant, data: { email, canale: 'online', subjectType: opts.subjectType ?? null },
    settings: { draftIdleDays: ONBOARDING_DEFAULTS.draftIdleDays, infoReminderDays: ONBOARDING_DEFAULTS.infoReminderDays, infoExpiryDays: ONBOARDING_DEFAULTS.infoExpiryDays },
  });
  const client = env.client();
  const r = await client.get(`/api/v1/onboarding/resume?token=${encodeURIComponent(await linkToken(env, tenant, caseId))}`);
  assert.equal(r.status, 200, r.text);
  return { caseId, email, client, base: `/api/v1/onboarding/case/${caseId}` };
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND with their CRCs). */
export const PNG = (() => {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))), chunk('IEND', Buffer.alloc(0))]);
})();

const nextYear = `${new Date().getUTCFullYear() + 2}-06-30`;
export const personaFisica = () => ({
  nome: 'Mario', cognome: 'Rossi', codice_fiscale: 'RSSMRA80A01H501U', data_nascita: '1980-01-01', luogo_nascita: 'Roma',
  nazionalita: 'IT', paese_residenza: 'IT', residenza: { via: 'Via Roma 1', cap: '00100', citta: 'Roma', paese: 'IT' },
  telefono: '+39 06 1234567', professione: 'Impiegato', pep: false,
  documento: { tipo: 'carta_identita', numero: 'CA12345AA', rilasciato_da: 'Comune di Roma', scadenza: nextYear },
});

/** Answers every question of the schema the case is served (first option, a plain text, no, a number). */
export async function completeCddAnswers(client: TestClient, base: string) {
  const s = await client.get(`${base}/cdd/schema`);
  assert.equal(s.status, 200, s.text);
  const risposte: Record<string, unknown> = {};
  for (const q of s.body.domande as { id: string; tipo: string; opzioni?: { valore: string }[] }[]) {
    risposte[q.id] = q.tipo === 'scelta' ? q.opzioni![0]!.valore : q.tipo === 'booleano' ? false : q.tipo === 'numero' ? 1000 : 'Stipendio da lavoro dipendente';
  }
  return { versione: s.body.versione as string, risposte };
}

/** Signs a ceremony the case started, as the applicant does from the signing link, with the code from the mailbox. */
export async function signCeremony(env: TestEnv, signingPath: string) {
  const m = signingPath.match(/^\/esign\/ceremony\/([0-9a-f-]{36})\?token=(.+)$/);
  assert.ok(m, `signing path ${signingPath}`);
  const [, id, tokenEnc] = m;
  const token = decodeURIComponent(tokenEnc!);
  const signer = env.client();
  let r = await signer.post(`/api/v1/esign/ceremony/${id}/terms`, { token });
  assert.equal(r.status, 200, r.text);
  const after = await env.mailbox.cursor();
  r = await signer.post(`/api/v1/esign/ceremony/${id}/present`, { token });
  assert.equal(r.status, 200, r.text);
  const otp = await env.mailbox.otp(r.body.signer.email, after);
  r = await signer.post(`/api/v1/esign/ceremony/${id}/sign`, { token, otp });
  assert.equal(r.status, 200, r.text);
  return id!;
}

/** Polls until the read model shows what the workflow did after a signal. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
