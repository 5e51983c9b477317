import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { notFound } from '../../../http/errors';
import { UPDATE_DEADLINE_MS } from '../../../kit/process';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import {
  MONITORING_SEED_RECORD_TYPE, MONITORING_SEED_WORKFLOW_TYPE, monitoringSeedWorkflowId, type MonitoringSeedInput,
} from '../../../../workflows/monitoring-seed/monitoring-seed.contract';
import { appendAudit } from '../../audit';
import { addDays } from '../engine/engine.dates';
import { todayInRome } from '../runs/runs.commands';
import { findSeedJob, type SeedJobRow } from './seed.repo';
import type { StartSeedInput } from './seed.schemas';

/**
 * Starting a seed (POST /api/engine/seed, `npm start`'s demo year) and reading its progress. The
 * labelled period is the last `mesi` whole months before the current one (in Rome), with six
 * months of history before it: the data look current, and nothing is in the future.
 */

export const SEED_HISTORY_MONTHS = 6;

function monthStart(today: string, monthsBack: number): string {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7)) - 1 - monthsBack;
  return new Date(Date.UTC(y + Math.floor(m / 12), ((m % 12) + 12) % 12, 1)).toISOString().slice(0, 10);
}

export function seedPeriod(mesi: number, today = todayInRome()): { storico_dal: string; dal: string; al: string } {
  return { storico_dal: monthStart(today, mesi + SEED_HISTORY_MONTHS), dal: monthStart(today, mesi), al: addDays(monthStart(today, 0), -1) };
}

export async function startSeed(deps: Deps, p: { codAzienda: string; actor: string } & Omit<StartSeedInput, 'cod_azienda'>): Promise<SeedJobRow> {
  const id = randomUUID();
  const workflowId = monitoringSeedWorkflowId(p.codAzienda, id);
  const period = seedPeriod(p.mesi);
  const seed = p.seed ?? id.slice(0, 8);
  const row = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor }, async (trx) => {
    await trx('monitoring_seed_jobs').insert({ id, cod_azienda: p.codAzienda, clienti: p.clienti, seed, mesi: p.mesi, ...period, workflow_id: workflowId, created_by: p.actor });
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.actor, action: 'monitoring.seed.created', entityType: 'monitoring_seed', entityId: id, data: { clienti: p.clienti, seed, mesi: p.mesi, ...period },
    });
    return (await findSeedJob(trx, p.codAzienda, id))!;
  });
  const input: MonitoringSeedInput = { codAzienda: p.codAzienda, seedId: id, engineTaskQueue: deps.config.temporal.engineTaskQueue };
  try {
    const client = await deps.temporal.get();
    await client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => client.workflow.start(MONITORING_SEED_WORKFLOW_TYPE, {
      workflowId, taskQueue: deps.temporal.taskQueue, args: [input],
      typedSearchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: MONITORING_SEED_RECORD_TYPE, recordId: id, status: 'in_coda' }),
    }));
  } catch (err) {
    await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor }, (trx) => trx('monitoring_seed_jobs').where({ id })
      .update({ stato: 'fallito', fase: 'fine', errore: 'Avvio non riuscito: riprova', finished_at: trx.fn.now() }));
    throw err;
  }
  return row;
}

/** The job with its imports' and replay's progress; another tenant's id is a 404. */
export async function seedDetail(trx: Knex.Transaction, codAzienda: string, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Elaborazione');
  const job = await findSeedJob(trx, codAzienda, id);
  if (!job) throw notFound('Elaborazione');
  const ids = [job.import_clienti, job.import_rapporti, job.import_movimenti].filter((x): x is string => !!x);
  const imports = ids.length ? await trx('import_jobs').whereIn('id', ids).select('id', 'tipo', 'stato', 'righe_lette', 'righe_importate', 'righe_gia_presenti', 'righe_errate') : [];
  const order = ['clienti', 'rapporti', 'movimenti'];
  const run = job.esecuzione_replay
    ? await trx('monitoring_esecuzioni').where({ id: job.esecuzione_replay }).first('id', 'stato', 'elaborati', 'totale', 'alert_nuovi') as { id: string; stato: string; elaborati: number; totale: number; alert_nuovi: number }
    : null;
  return {
    ...job,
    importazioni: (imports as { tipo: string }[]).sort((a, b) => order.indexOf(a.tipo) - order.indexOf(b.tipo)) as never[],
    replay: run ?? null,
  };
}

/**
 * `npm start` on a new installation: the demo tenant gets a small labelled year in the background,
 * once (a tenant that already has a seed job, or customers, is left as it is). Null when nothing started.
 */
export async function startDemoYear(deps: Deps, codAzienda: string, clienti: number): Promise<SeedJobRow | null> {
  const actor = 'sistema:demo';
  const busy = await withTenant(deps.db, { codAzienda, actor }, async (trx) =>
    !!(await trx('monitoring_seed_jobs').where({ cod_azienda: codAzienda }).first('id')) || !!(await trx('anagrafe').where({ cod_azienda: codAzienda }).first('cod_anagrafe')));
  if (busy) return null;
  return startSeed(deps, { codAzienda, actor, clienti, seed: 'demo', mesi: 12 });
}
