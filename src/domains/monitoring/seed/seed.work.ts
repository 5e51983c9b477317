import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { HttpError } from '../../../http/errors';
import type { SessionUser } from '../../../http/context';
import { SESSION_USER_FIELDS } from '../../../http/context';
import { staffActor } from '../../../kit/actor';
import type { SeedWork } from '../../../../workflows/monitoring-seed/monitoring-seed.contract';
import { initiateCdd } from '../../cdd';
import { queueAssessment, uuidFromKey } from '../../risk';
import { assignAlert } from '../alerts/alerts.commands';
import { escalateAlert } from '../alerts/alerts.escalate';
import { SYSTEM_ACTOR } from '../lists/lists.repo';
import { findSeedJob, updateSeedJob } from './seed.repo';
import { codePrefix } from './seed.year';

/**
 * The seed's last phase: the work a compliance officer would have opened on the seeded year, so a
 * new user opening cases, CDD or risk finds some. Everything goes through the owning area's own
 * process, never its tables:
 * - the highest-scoring alerts of the year (about one in twenty, one per customer, 1 to 8) are
 *   assigned to the tenant's compliance officer and escalated into investigation cases
 *   (`assignAlert`, `escalateAlert`: the cases area's contract opens the case);
 * - a CDD task for each high-risk customer (class `medio_alto` or `alto`, or a PEP), at most 10 (`initiateCdd`,
 *   motivo `manuale`, keyed by the seed and the customer);
 * - a risk assessment for each of those customers and of the escalated alerts (`queueAssessment`,
 *   the risk area's batch start, keyed the same way).
 * Repeatable as a whole (a restart, a retried activity): the same alerts are chosen in the same
 * order and those already escalated count, the CDD keys and assessment ids start nothing twice.
 * A tenant without an active compliance officer gets no cases (nobody would have escalated them).
 */

const MAX_CASI = 8;
const MAX_CDD = 10;
const MOTIVAZIONE = 'Anno dimostrativo: alert tra i più gravi dell\'anno, escalato per l\'indagine';

export interface SeedWorkDeps { db: Knex; client: Client; taskQueue: string }

/** The areas' commands take the web process's dependencies: the same database and this worker's Temporal client. */
function processDeps(d: SeedWorkDeps): Deps {
  return { db: d.db, temporal: { get: async () => d.client, taskQueue: d.taskQueue, webUiLink: () => null } } as unknown as Deps;
}

async function complianceOfficer(trx: Knex.Transaction, codAzienda: string): Promise<SessionUser | undefined> {
  return trx('utenti').where({ cod_azienda: codAzienda, attivo: true }).whereRaw("'co' = any(ruoli)").orderBy('created_at').orderBy('cod_utente')
    .first(...SESSION_USER_FIELDS) as Promise<SessionUser | undefined>;
}

export async function openSeedWork(d: SeedWorkDeps, ref: { codAzienda: string; seedId: string }): Promise<SeedWork> {
  const { codAzienda, seedId } = ref;
  const deps = processDeps(d);
  const tx = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(d.db, { codAzienda, actor: SYSTEM_ACTOR }, fn);
  const { job, co, alerts, risky } = await tx(async (trx) => {
    const j = (await findSeedJob(trx, codAzienda, seedId))!;
    const customers = trx('anagrafe').where({ cod_azienda: codAzienda }).andWhere('codice_esterno', 'like', `${codePrefix(seedId)}%`).select('cod_anagrafe');
    // The year's alerts of this seed's customers, worst first; one per customer.
    const rows = await trx('monitoring_alert').where({ cod_azienda: codAzienda, origine: 'replay' }).whereNull('deleted_at').whereIn('cod_anagrafe', customers)
      .orderBy([{ column: 'punteggio', order: 'desc' }, { column: 'cod_alert' }]).select('id', 'cod_anagrafe', 'stato', 'assegnatario') as
      { id: string; cod_anagrafe: string; stato: string; assegnatario: string | null }[];
    const seen = new Set<string>();
    const chosen = rows.filter((r) => !seen.has(r.cod_anagrafe) && seen.add(r.cod_anagrafe));
    const cdd = await trx('anagrafe').whereIn('cod_anagrafe', customers).andWhere((q) => q.whereIn('classe_rischio', ['medio_alto', 'alto']).orWhere('pep', true))
      .orderBy('cod_anagrafe').limit(MAX_CDD).pluck('cod_anagrafe') as string[];
    return { job: j, co: await complianceOfficer(trx, codAzienda), alerts: chosen.slice(0, Math.min(MAX_CASI, Math.max(1, Math.round(rows.length / 20)))), risky: cdd };
  });

  let casi = 0;
  const caseCustomers: string[] = [];
  if (co) {
    for (const a of alerts) {
      if (a.stato !== 'escalated') {
        if (a.stato !== 'new' && a.stato !== 'assigned') continue; // closed meanwhile by someone: left as it is
        try {
          if (a.stato === 'new') await assignAlert(deps, codAzienda, co, a.id, co.cod_utente);
          await escalateAlert(deps, codAzienda, co, a.id, { motivazione: MOTIVAZIONE });
        } catch (err) {
          // Escalated by a concurrent run of this step: the same case (its id follows from the alert's).
          if (!(err instanceof HttpError && err.status === 409)) throw err;
        }
      }
      casi += 1;
      caseCustomers.push(a.cod_anagrafe);
    }
  }

  let praticheCdd = 0;
  const cddActor = co ? staffActor(co) : { id: SYSTEM_ACTOR, username: SYSTEM_ACTOR, roles: ['co'] };
  for (const cod of risky) {
    await initiateCdd({ db: d.db, client: d.client, taskQueue: d.taskQueue }, {
      codAzienda, actor: cddActor, codAnagrafe: cod, motivo: 'manuale', chiave: `monitoring-seed:${seedId}:${cod}`, origine: { seed: seedId },
      nota: 'Anno dimostrativo: cliente ad alto rischio, adeguata verifica aperta dal responsabile antiriciclaggio',
    });
    praticheCdd += 1;
  }

  let valutazioni = 0;
  for (const cod of [...new Set([...risky, ...caseCustomers])]) {
    await queueAssessment({ db: d.db, client: d.client, taskQueue: d.taskQueue }, {
      codAzienda, actor: cddActor, codAnagrafe: cod, motivo: 'manuale', riferimento: `seed ${seedId}`, assessmentId: uuidFromKey(`monitoring-seed:${seedId}:${cod}`),
    });
    valutazioni += 1;
  }

  const work: SeedWork = { casi, pratiche_cdd: praticheCdd, valutazioni };
  await tx((trx) => updateSeedJob(trx, codAzienda, job.id, { pratiche: JSON.stringify(work) }));
  return work;
}
