import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS } from '../monitoring.access';
import { engineHealth } from './engine.health';
import { runPilot } from './engine.pilot';
import { reconcile } from './engine.reconcile';
import { replayDeadLetter } from './sync.commands';
import { listDeadLetters, syncStats } from './sync.repo';
import {
  deadLettersQuery, deadLettersResponse, healthResponse, pilotBody, pilotResponse, reconcileQuery, reconcileResponse, replayResponse, statsResponse,
} from './sync.schemas';

const tag = 'Motore decisionale';

/**
 * The engine's operations (docs/monitoring.md, "The engine process and its sync"): its health
 * (also under /api/kyt), the sync's dead letters, their replay and statistics, the reconciliation
 * of the copy with the platform, the pilot round trip. Reading: all staff; what writes or costs
 * (a replay, a reconciliation that reads every record, the pilot): compliance officer and admin.
 */
export const registerEngineRoutes: RegisterRoutes = (router, { deps }) => {
  const actor = (ctx: Ctx) => ctx.state.user!.username;

  for (const path of ['/api/engine/health', '/api/kyt/engine/health']) {
    router.api({
      method: 'GET', path, tag: path.startsWith('/api/kyt') ? 'KYT' : tag,
      summary: 'Stato del motore: worker sulla sua coda, ritardo della sincronizzazione, dead letter, ultima elaborazione giornaliera (ok, degraded, down)',
      access: staff(STAFF_READ), response: healthResponse,
      handler: (ctx) => engineHealth(deps, tenantOf(ctx), actor(ctx)),
    });
  }

  router.api({
    method: 'GET', path: '/api/engine/sync/dead-letters', tag, summary: 'Le sincronizzazioni con record non copiati (o fallite) e non ancora rieseguite, con i record e il motivo',
    access: staff(STAFF_READ), query: deadLettersQuery, response: deadLettersResponse,
    handler: async (ctx, { query }) => ({ items: await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: actor(ctx) }, (trx) => listDeadLetters(trx, tenantOf(ctx), query)) }),
  });

  router.api({
    method: 'POST', path: '/api/engine/sync/replay/:codSync', tag, summary: 'Riesegue una dead letter: i record non copiati sono riletti dalla piattaforma (409 se non è una dead letter)',
    access: staff(RULE_EDITORS), response: replayResponse,
    handler: (ctx, { params }) => replayDeadLetter(deps.db, tenantOf(ctx), actor(ctx), params.codSync!),
  });

  router.api({
    method: 'GET', path: '/api/engine/sync/stats', tag, summary: 'Per tipo (clienti, regole, liste): esecuzioni, ultima riuscita, ritardo, dead letter, record in copia',
    access: staff(STAFF_READ), response: statsResponse,
    handler: async (ctx) => ({ per_tipo: await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: actor(ctx) }, (trx) => syncStats(trx, tenantOf(ctx))) }),
  });

  router.api({
    method: 'GET', path: '/api/engine/reconcile', tag, summary: 'Confronta la piattaforma con la copia del motore: conteggi e hash per tipo, e i codici che differiscono (al più `limite` per gruppo)',
    access: staff(RULE_EDITORS), query: reconcileQuery, response: reconcileResponse,
    handler: (ctx, { query }) => reconcile(deps.db, tenantOf(ctx), actor(ctx), query),
  });

  router.api({
    method: 'POST', path: '/api/engine/pilot/run-roundtrip', tag,
    summary: 'Un evento sintetico attraverso i percorsi reali (lettura, valutazione, decisione in una transazione annullata, andata e ritorno a un worker del motore), con il tempo di ogni passo; 503 se nessun worker del motore risponde',
    access: staff(RULE_EDITORS), body: pilotBody, response: pilotResponse,
    handler: (ctx, { body }) => runPilot(deps, tenantOf(ctx), actor(ctx), body),
  });
};
