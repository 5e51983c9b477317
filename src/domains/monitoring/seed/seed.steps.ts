import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { SeedFase, SeedFiles, SeedImport } from '../../../../workflows/monitoring-seed/monitoring-seed.contract';
import { appendAudit } from '../../audit';
import { getImportJob, importGeneratedFile } from '../../imports';
import { indirizzoCripto } from '../generator/generator.names';
import { Casuale } from '../generator';
import { recordKytEvents } from '../kyt/kyt.commands';
import type { KytEventInput } from '../kyt/kyt.schemas';
import { SYSTEM_ACTOR } from '../lists/lists.repo';
import { updateTenantList } from '../lists/lists.commands';
import { planReplay } from '../runs/runs.commands';
import { installTemplates } from '../templates';
import { isCrypto, writeSeedFiles } from './seed.files';
import { findSeedJob, updateSeedJob, type SeedJobRow } from './seed.repo';
import { codePrefix, seedYear } from './seed.year';

/**
 * The seed workflow's steps (activities/monitoring-seed): each in tenant transactions, each
 * idempotent (a retried step finds what it did in the job's row, or writes the same rows again:
 * imports and KYT events are keyed by their external codes and hashes).
 */

export interface SeedStepDeps { db: Knex; documentDir: string }
export interface SeedRef { codAzienda: string; seedId: string }

/** The step cannot go on (an import that failed): the workflow ends the job without retrying. */
export class SeedStepFailed extends Error {
  readonly code = 'SEED_IMPORT_FAILED';
}

const tx = <T>(deps: SeedStepDeps, codAzienda: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda, actor: SYSTEM_ACTOR }, fn);

async function job(deps: SeedStepDeps, ref: SeedRef): Promise<SeedJobRow> {
  const row = await tx(deps, ref.codAzienda, (trx) => findSeedJob(trx, ref.codAzienda, ref.seedId));
  if (!row) throw new SeedStepFailed(`seed job ${ref.seedId} not found`);
  return row;
}

export function setSeedPhase(deps: SeedStepDeps, p: SeedRef & { fase: SeedFase }): Promise<void> {
  return tx(deps, p.codAzienda, (trx) => updateSeedJob(trx, p.codAzienda, p.seedId, { fase: p.fase }));
}

/** Generates the year into the three import files and records their import jobs (once: a retry finds them). */
export async function generateSeedFiles(deps: SeedStepDeps, ref: SeedRef, heartbeat: () => void): Promise<SeedFiles> {
  const j = await job(deps, ref);
  if (j.import_clienti && j.import_rapporti && j.import_movimenti) return { imports: { clienti: j.import_clienti, rapporti: j.import_rapporti, movimenti: j.import_movimenti } };
  await tx(deps, ref.codAzienda, (trx) => updateSeedJob(trx, ref.codAzienda, ref.seedId, { stato: 'in_corso', fase: 'generazione', started_at: trx.fn.now() }));
  const written = await writeSeedFiles(join(deps.documentDir, 'imports', '.upload'), j, heartbeat);
  try {
    const imports = {} as Record<SeedImport, string>;
    for (const tipo of ['clienti', 'rapporti', 'movimenti'] as const) {
      const row = await importGeneratedFile(deps.db, deps.documentDir, { codAzienda: ref.codAzienda, actor: j.created_by, tipo, nome: `anno-dimostrativo-${tipo}.csv`, path: written.paths[tipo] });
      imports[tipo] = row.id;
    }
    await tx(deps, ref.codAzienda, (trx) => updateSeedJob(trx, ref.codAzienda, ref.seedId, {
      import_clienti: imports.clienti, import_rapporti: imports.rapporti, import_movimenti: imports.movimenti, piantati: JSON.stringify(written.piantati),
      righe: JSON.stringify({ clienti: written.righe.clienti, rapporti: written.righe.rapporti, movimenti: written.righe.movimenti, eventi_kyt: written.righe.eventi_kyt }),
    }));
    return { imports };
  } finally {
    await Promise.all(Object.values(written.paths).map((p) => rm(p, { force: true })));
  }
}

/** An import that did not complete ends the seed (its report says why); the rows it refused are counted. */
export async function checkSeedImport(deps: SeedStepDeps, p: SeedRef & { tipo: SeedImport; importId: string }): Promise<void> {
  await tx(deps, p.codAzienda, async (trx) => {
    const imp = await getImportJob(trx, p.importId);
    if (!imp || imp.stato !== 'completato') throw new SeedStepFailed(`Importazione ${p.tipo} non completata: ${imp?.errore ?? imp?.stato ?? 'non trovata'}`);
    await trx.raw(`update monitoring_seed_jobs set righe = righe || ?::jsonb where cod_azienda = ? and id = ?`, [
      JSON.stringify({ [`${p.tipo}_importati`]: imp.righe_importate + imp.righe_gia_presenti, [`${p.tipo}_errati`]: imp.righe_errate }), p.codAzienda, p.seedId,
    ]);
  });
}

const PRICE_EUR: Record<string, number> = { BTC: 55_000, ETH: 2_800, USDT: 0.92, USDC: 0.92, XMR: 150, LTC: 80, TRX: 0.12, BCH: 350, ZEC: 35, DASH: 30 };
const chainOfCustomer = (chain: string): 'bitcoin' | 'ethereum' | 'tron' => (chain === 'ethereum' || chain === 'tron' ? chain : 'bitcoin');

/** The generated crypto transfers as KYT events of each customer's own wallet, recorded (a replay evaluates them). */
export async function recordSeedKytEvents(deps: SeedStepDeps, ref: SeedRef, heartbeat: () => void): Promise<number> {
  const j = await job(deps, ref);
  const piano = seedYear(j);
  const prefix = codePrefix(j.id);
  let batch: KytEventInput[] = [];
  let recorded = 0;
  const flush = async () => {
    if (!batch.length) return;
    const items = await tx(deps, ref.codAzienda, (trx) => recordKytEvents(trx, ref.codAzienda, j.created_by, batch));
    recorded += items.length;
    batch = [];
    heartbeat();
  };
  for (let i = 0; i < piano.clienti; i++) {
    const c = piano.cliente(i);
    for (const m of c.movimenti.filter(isCrypto)) {
      const chain = m.chain ?? 'bitcoin';
      const own = indirizzoCripto(new Casuale(`${prefix}${c.profilo.cod_anagrafe}:${chain}`), chainOfCustomer(chain));
      const asset = (m.asset ?? 'BTC').toUpperCase();
      const ora = m.ora_operazione && m.ora_operazione >= '08:00' && m.ora_operazione < '20:00' ? m.ora_operazione.slice(0, 5) : '12:00';
      batch.push({
        chain, hash: createHash('sha256').update(`${prefix}${m.id}`).digest('hex'), asset,
        indirizzo_da: m.segno === 'uscita' ? own : m.indirizzo_controparte!, indirizzo_a: m.segno === 'uscita' ? m.indirizzo_controparte! : own,
        importo: (m.importo_eur / (PRICE_EUR[asset] ?? 1)).toFixed(8), importo_eur: m.importo_eur, data_ora: `${m.data_operazione}T${ora}:00Z`,
        codice_esterno: `${prefix}${c.profilo.codice_esterno}`, direzione: m.segno,
      });
      if (batch.length >= 500) await flush();
    }
  }
  await flush();
  await tx(deps, ref.codAzienda, (trx) => updateSeedJob(trx, ref.codAzienda, ref.seedId, { eventi_kyt: recorded }));
  return recorded;
}

/** The standard templates in force (those the tenant does not have yet) and the year's addresses on the tenant's crypto list. */
export async function enableSeedRules(deps: SeedStepDeps, ref: SeedRef): Promise<number> {
  const j = await job(deps, ref);
  const piano = seedYear(j);
  return tx(deps, ref.codAzienda, async (trx) => {
    await installTemplates(trx, ref.codAzienda, { attiva: true, cod_utente: null });
    await updateTenantList(trx, ref.codAzienda, SYSTEM_ACTOR, 'indirizzi_crypto_tenant', {
      aggiungi: piano.indirizzi_tenant, motivazione: `Indirizzi della lista interna dell'anno dimostrativo (seed ${j.id})`,
    });
    const [{ n }] = await trx('monitoring_regole_versioni').where({ cod_azienda: ref.codAzienda, stato: 'attiva' }).count({ n: '*' }) as [{ n: string }];
    await updateSeedJob(trx, ref.codAzienda, ref.seedId, { regole_attivate: Number(n) });
    return Number(n);
  });
}

/** The replay's run over the labelled year (once: a retry finds it). */
export async function planSeedReplay(deps: SeedStepDeps, ref: SeedRef): Promise<{ runId: string }> {
  return tx(deps, ref.codAzienda, async (trx) => {
    const j = (await findSeedJob(trx, ref.codAzienda, ref.seedId, true))!;
    if (j.esecuzione_replay) return { runId: j.esecuzione_replay };
    const run = await planReplay(trx, { codAzienda: ref.codAzienda, actor: j.created_by, dal: j.dal, al: j.al });
    await updateSeedJob(trx, ref.codAzienda, ref.seedId, { esecuzione_replay: run.id, fase: 'replay' });
    return { runId: run.id };
  });
}

export async function finishSeed(deps: SeedStepDeps, p: SeedRef & { stato: 'completato' | 'fallito'; errore?: string }): Promise<string> {
  return tx(deps, p.codAzienda, async (trx) => {
    const j = (await findSeedJob(trx, p.codAzienda, p.seedId, true))!;
    if (j.stato === 'completato' || j.stato === 'fallito') return j.stato;
    let alert = 0;
    if (j.esecuzione_replay) {
      const run = await trx('monitoring_esecuzioni').where({ id: j.esecuzione_replay }).first('alert_nuovi', 'stato') as { alert_nuovi: number; stato: string } | undefined;
      alert = run?.alert_nuovi ?? 0;
      if (p.stato === 'completato' && run?.stato !== 'completed') {
        p = { ...p, stato: 'fallito', errore: `La riesecuzione dell'anno si è chiusa come ${run?.stato ?? 'assente'}` };
      }
    }
    await updateSeedJob(trx, p.codAzienda, p.seedId, { stato: p.stato, fase: 'fine', alert, errore: p.errore ?? null, finished_at: trx.fn.now() });
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: SYSTEM_ACTOR, action: p.stato === 'completato' ? 'monitoring.seed.completed' : 'monitoring.seed.failed', entityType: 'monitoring_seed', entityId: p.seedId,
      data: { clienti: j.clienti, seed: j.seed, dal: j.dal, al: j.al, alert, ...(p.errore ? { errore: p.errore.slice(0, 500) } : {}) },
    });
    return p.stato;
  });
}
