import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { withPlatform } from '../../src/db/tenant';
import { createAzienda, createUtente } from '../../src/domains/admin';
import type { AppStack } from './app-stack';
import { BenchHttp } from './load';

/** A tenant of the benchmark with a compliance officer signed in over HTTP (password and TOTP). */
export async function seedTenantAndSignIn(stack: AppStack, codAzienda: string): Promise<BenchHttp> {
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const username = `bench_${codAzienda.toLowerCase()}`;
  const totpSecret = new Secret({ size: 20 }).base32;
  await withPlatform(stack.deps.platformDb, 'bench', async (trx) => {
    await createAzienda(trx, { cod_azienda: codAzienda, ragione_sociale: `Banca di prova ${codAzienda} S.p.A.`, tipo_intermediario: 'banca' }, 'bench');
    const u = await createUtente(trx, { cod_azienda: codAzienda, username, email: `${username}@example.test`, nome: 'Bench', cognome: codAzienda, password, ruoli: ['co'] }, 'bench');
    await trx('utenti').where({ cod_utente: u.cod_utente }).update({ totp_secret: stack.deps.secrets.seal(totpSecret), totp_enabled: true });
  });
  const http = new BenchHttp(stack.baseUrl);
  const totp = new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const r = await http.request('POST', '/auth/login', { json: { username, password, totp } });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.body}`);
  http.cookie = [r.headers['set-cookie'] ?? []].flat().map((c) => c.split(';')[0]).join('; ');
  return http;
}

/**
 * Case rows for the list figures, written as the owner straight into the projection (a
 * million workflows would measure Temporal, not the list): `perTenant` rows in each of
 * `tenants` tenants named `${prefix}1…`, plus the measured tenant's own rows.
 */
export async function seedCaseRows(stack: AppStack, p: { codAzienda: string; rows: number; otherTenants: number; rowsPerOther: number; prefix: string }) {
  const { owner } = stack;
  await owner.raw(`insert into aziende (cod_azienda, ragione_sociale) select ? || t, 'Bench ' || t from generate_series(1, ?) t on conflict do nothing`, [p.prefix, p.otherTenants]);
  const insert = (tenantExpr: string, n: number, bindings: (string | number)[]) => owner.raw(`
    insert into cases (id, cod_azienda, titolo, descrizione, tipo, priorita, stato, opened_by, sla_days, sla_due_at, workflow_id, created_at, updated_at)
    select gen_random_uuid(), ${tenantExpr}, 'Verifica operatività ' || i, 'Caso di prova ' || i, (array['indagine','alert_monitoraggio','screening','altro'])[1 + i % 4],
           (array['bassa','media','alta','critica'])[1 + i % 4], (array['open','escalated','closing','closed'])[1 + (i / 7) % 4],
           gen_random_uuid(), 30, now() + make_interval(days => i % 60), 'bench:' || i, now() - make_interval(secs => i), now()
      from generate_series(1, ?) i`, [...bindings, n]);
  await insert('?', p.rows, [p.codAzienda]);
  await insert(`? || (1 + i % ${Number(p.otherTenants)})`, p.otherTenants * p.rowsPerOther, [p.prefix]);
  // As autovacuum would soon: hint bits set and the visibility map current, so index-only counts need no heap visits.
  await owner.raw('vacuum (analyze) cases');
}
