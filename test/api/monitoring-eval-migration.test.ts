import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../../src/config';
import { ensureLoginRole, migrationsDir } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import { ensureTenantGuard } from '../../src/db/tenant-guard';
import { startScratchDatabase, type ScratchDatabase } from '../../src/infra/scratch-database';

const FIRST = '20261208000100_create_monitoring_lists.ts';
const OURS = [FIRST, '20261208000200_create_monitoring_decisions.ts', '20261208000300_create_kyt_events.ts', '20261208000400_create_monitoring_runs.ts'];

/**
 * The migrations of monitoring's evaluation paths on a database of their own: the tables with their
 * row-level security, the decisions' monthly partitions made on demand (outside the months made
 * ahead too) and refused outside the table's years, the CHECKs that keep a decision and a run
 * consistent; all four go down and up again.
 */
describe('migrations: monitoring\'s evaluation paths (lists, decisions, KYT events, runs)', function () {
  this.timeout(180_000);
  let scratch: ScratchDatabase;
  let db: Knex;
  const opts = (name: string) => ({ directory: migrationsDir, loadExtensions: ['.ts'], name });

  before(async () => {
    scratch = await startScratchDatabase({ name: `cp_moneval_${randomBytes(4).toString('hex')}`, durable: false });
    db = createKnex(scratch.ownerUrl, { max: 2 });
    const setup = databaseSetup(loadConfig({ ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false' }));
    await ensureLoginRole(db, setup.roles.app, setup.passwords.app);
    await ensureLoginRole(db, setup.roles.platform, setup.passwords.platform);
    await ensureTenantGuard(db, setup.roles, setup.tenantContextKey);
    const earlier = readdirSync(migrationsDir).filter((f) => f.endsWith('.ts') && f < FIRST).sort();
    for (const name of earlier) await db.migrate.up(opts(name));
    for (const name of OURS) await db.migrate.up(opts(name));
    await db('aziende').insert({ cod_azienda: 'MIG3', ragione_sociale: 'Migrazione Tre S.r.l.' });
    await db('anagrafe').insert({ cod_azienda: 'MIG3', cod_anagrafe: 'C-1', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente', created_by: 'test' });
  });
  after(async () => {
    await db?.destroy();
    await scratch?.stop();
  });

  const decision = (over: Record<string, unknown> = {}) => ({
    id: '00000000-0000-4000-8000-000000000001', cod_azienda: 'MIG3', cod_decisione: 'DEC-20010305-0000000000001', giorno: '2001-03-05', tipo: 'evento',
    fonte_evento: 'movimento', evento_id: '00000000-0000-4000-8000-0000000000aa', cod_anagrafe: 'C-1', esito: 'nessuna_anomalia', punteggio: 0, regole: '[]',
    origine: 'tempo_reale', motore: 'test', durata_ms: 1, ...over,
  });

  it('enables row-level security on every new table', async () => {
    const { rows } = await db.raw<{ rows: { relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }[] }>(
      `select relname, relrowsecurity, relforcerowsecurity from pg_class where relname = any(?) order by relname`,
      [['liste_riferimento', 'liste_riferimento_versioni', 'liste_riferimento_voci', 'monitoring_decisioni', 'kyt_eventi', 'monitoring_esecuzioni',
        'monitoring_backtest_alert', 'monitoring_statistiche_pari', 'monitoring_rilasci']]);
    assert.equal(rows.length, 9);
    for (const r of rows) assert.deepEqual([r.relname, r.relrowsecurity, r.relforcerowsecurity], [r.relname, true, true]);
  });

  it('makes a decision\'s month on demand, in the partitions\' schema, and refuses one outside the table\'s years', async () => {
    await db.raw('select monitoring_decisioni_ensure_partitions(?::date[])', [['2001-03-05']]);
    await db('monitoring_decisioni').insert(decision());
    const { rows } = await db.raw<{ rows: { nspname: string }[] }>("select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = 'monitoring_decisioni_2001_03'");
    assert.deepEqual(rows.map((r) => r.nspname), ['monitoring_partizioni']);
    await assert.rejects(db.raw('select monitoring_decisioni_ensure_partitions(?::date[])', [['2999-01-01']]), /outside the months/);
    // One decision per event: the same event again is refused by the partial unique index.
    await assert.rejects(db('monitoring_decisioni').insert(decision({ id: '00000000-0000-4000-8000-000000000002', cod_decisione: 'DEC-20010305-0000000000002' })), /unique/);
    // An event decision names its event; a malformed code is refused.
    await assert.rejects(db('monitoring_decisioni').insert(decision({ id: '00000000-0000-4000-8000-000000000003', evento_id: null })), /monitoring_decisioni_evento/);
    await assert.rejects(db('monitoring_decisioni').insert(decision({ id: '00000000-0000-4000-8000-000000000004', cod_decisione: 'DEC-1' })), /monitoring_decisioni_codice/);
  });

  it('keeps a run\'s kind and end consistent', async () => {
    const run = { id: '00000000-0000-4000-8000-0000000000b1', cod_azienda: 'MIG3', tipo: 'giornaliero', giorno: '2001-03-05', dal: '2001-03-05', al: '2001-03-05', workflow_id: 'w1', avviata_da: 'test' };
    await db('monitoring_esecuzioni').insert(run);
    await assert.rejects(db('monitoring_esecuzioni').insert({ ...run, id: '00000000-0000-4000-8000-0000000000b2', workflow_id: 'w2' }), /unique/, 'one daily run per tenant and day');
    await assert.rejects(db('monitoring_esecuzioni').insert({ ...run, id: '00000000-0000-4000-8000-0000000000b3', tipo: 'backtest', giorno: null, workflow_id: 'w3' }), /monitoring_esecuzioni_backtest/);
    await assert.rejects(db('monitoring_esecuzioni').where({ id: run.id }).update({ stato: 'completed' }), /monitoring_esecuzioni_fine/);
  });

  it('goes down and up again', async () => {
    for (const name of [...OURS].reverse()) await db.migrate.down(opts(name));
    const gone = await db.raw<{ rows: { n: string }[] }>("select count(*) as n from pg_class where relname in ('monitoring_decisioni', 'kyt_eventi', 'liste_riferimento', 'monitoring_esecuzioni')");
    assert.equal(Number(gone.rows[0]!.n), 0);
    assert.equal((await db.raw("select to_regnamespace('monitoring_partizioni') as s")).rows[0].s, null);
    for (const name of OURS) await db.migrate.up(opts(name));
    await db.raw('select monitoring_decisioni_ensure_partitions(?::date[])', [['2001-03-05']]);
    await db('monitoring_decisioni').insert(decision());
  });
});
