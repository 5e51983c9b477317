import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '../kit/roles';
import { createAzienda, createUtente } from '../domains/admin';
import { withPlatform, type PlatformDb } from '../db/tenant';

export const DEMO_TENANT = 'DEMO';
const DEMO_USERS: { username: string; nome: string; cognome: string; ruoli: Role[]; tenant: boolean }[] = [
  { username: 'superadmin', nome: 'Sara', cognome: 'Piattaforma', ruoli: ['superadmin'], tenant: false },
  { username: 'admin', nome: 'Andrea', cognome: 'Amministratore', ruoli: ['admin'], tenant: true },
  { username: 'co', nome: 'Chiara', cognome: 'Conformità', ruoli: ['co'], tenant: true },
  { username: 'sos', nome: 'Stefano', cognome: 'Segnalazioni', ruoli: ['sos'], tenant: true },
  { username: 'analyst', nome: 'Anna', cognome: 'Analisi', ruoli: ['analyst'], tenant: true },
  { username: 'auditor', nome: 'Aldo', cognome: 'Revisione', ruoli: ['auditor'], tenant: true },
  { username: 'viewer', nome: 'Valeria', cognome: 'Lettura', ruoli: ['viewer'], tenant: true },
];

/** The demo password is made on first seed and kept under .data (never in the repository). */
function demoPassword(dataDir: string): string {
  const file = join(dataDir, 'demo-password.txt');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const pw = `Demo-${randomBytes(9).toString('base64url')}`;
  writeFileSync(file, `${pw}\n`, { mode: 0o600 });
  return pw;
}

/** Idempotent: creates what is missing, never changes what exists. */
export async function seedDemo(db: PlatformDb, dataDir: string): Promise<{ password: string; users: string[] }> {
  const password = demoPassword(dataDir);
  await withPlatform(db, 'seed', async (trx) => {
    if (!(await trx('aziende').where({ cod_azienda: DEMO_TENANT }).first())) {
      await createAzienda(trx, { cod_azienda: DEMO_TENANT, ragione_sociale: 'Demo Banca S.p.A.', tipo_intermediario: 'banca', partita_iva: '01234567890', email: 'compliance@demo.example' }, 'seed');
    }
    for (const u of DEMO_USERS) {
      if (await trx('utenti').whereRaw('lower(username) = ?', [u.username]).first()) continue;
      const { tenant, ...fields } = u;
      await createUtente(trx, { ...fields, email: `${u.username}@demo.example`, password, cod_azienda: tenant ? DEMO_TENANT : null }, 'seed');
    }
  });
  return { password, users: DEMO_USERS.map((u) => u.username) };
}
