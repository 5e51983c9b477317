import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { serviceUnavailable, ValidationError } from '../../../http/errors';
import { evaluateEvent, type MovimentoMonitorato } from '../engine';
import { addDays } from '../engine/engine.dates';
import { engineInstance } from '../evaluation/realtime';
import { recordEvaluations } from '../evaluation/record';
import { ruleSetFor } from '../evaluation/rule-set';
import { monitoringStore } from '../evaluation/store.current';
import { todayInRome } from '../runs/runs.commands';
import { engineWorkers } from './engine.health';
import {
  ENGINE_PILOT_WAIT_SECONDS, ENGINE_PILOT_WORKFLOW_TYPE, type EnginePilotAnswer, type EnginePilotInput,
} from '../../../../workflows/engine-sync/engine-sync.contract';

/**
 * The pilot round trip (docs/monitoring.md, "The engine process and its sync"): a synthetic event
 * for a customer of the tenant goes through the real paths, each step timed: the store read (the
 * rules and lists in force, the profile, the history), the evaluation of the rules in force, the
 * decision and its alerts written, in a tenant transaction that is then rolled back (nothing of
 * the pilot stays: no decision, alert or audit event); then a round trip to an activity on the
 * engine's queue, which reads the profile through the engine's store. No worker on the queue, or
 * none taking the task within ENGINE_PILOT_WAIT_SECONDS: 503, never a hang.
 */
class PilotRollback extends Error {}

const ms = (t: number) => Math.round((performance.now() - t) * 10) / 10;

export async function runPilot(deps: Deps, codAzienda: string, actor: string, body: { cod_anagrafe?: string; importo_eur?: number }) {
  const passi: { passo: string; ms: number }[] = [];
  const started = performance.now();
  let result: Record<string, unknown> = {};
  let codAnagrafe = body.cod_anagrafe;
  try {
    await withTenant(deps.db, { codAzienda, actor }, async (trx) => {
      if (!codAnagrafe) {
        codAnagrafe = (await trx('anagrafe').where('cod_azienda', codAzienda).whereNot('stato', 'eliminato').orderBy('cod_anagrafe').first('cod_anagrafe'))?.cod_anagrafe;
        if (!codAnagrafe) throw new ValidationError([{ path: 'cod_anagrafe', message: 'Nessun cliente nell\'azienda: creane uno e indicane il codice' }]);
      }
      const store = monitoringStore();
      const giorno = todayInRome();
      let t = performance.now();
      const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
      const profilo = (await store.profiles(trx, codAzienda, [codAnagrafe])).get(codAnagrafe);
      if (!profilo) throw new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato nell\'azienda' }]);
      const storico = (await store.histories(trx, codAzienda, [codAnagrafe], addDays(giorno, -set.regole.giorni_storico), giorno)).get(codAnagrafe) ?? [];
      const pari = await store.peerStatistics(trx, codAzienda, giorno);
      passi.push({ passo: 'lettura_store', ms: ms(t) });

      t = performance.now();
      const evento: MovimentoMonitorato = {
        id: randomUUID(), cod_anagrafe: codAnagrafe, cod_rapporto: profilo.rapporti[0]?.cod_rapporto ?? 'pilota', data_operazione: giorno,
        ora_operazione: new Date().toLocaleTimeString('it-IT', { timeZone: 'Europe/Rome', hour12: false }), importo_eur: body.importo_eur ?? 100,
        segno: 'uscita', contanti: false, causale: 'pilota', canale: 'pilota',
      };
      const decisione = evaluateEvent(set.regole, { profilo, storico, evento, pari });
      passi.push({ passo: 'valutazione', ms: ms(t) });

      t = performance.now();
      const recorded = await recordEvaluations(trx, codAzienda, [{ decisione, fonte: 'movimento', durata_ms: 0 }], set, {
        origine: 'tempo_reale', history: new Map([...storico, evento].map((m) => [m.id, m])), motore: `${engineInstance()} pilota`, actor,
      });
      passi.push({ passo: 'scrittura_decisione', ms: ms(t) });
      const summary = [...recorded.summaries.values()][0];
      result = {
        cod_anagrafe: codAnagrafe, evento_id: evento.id, regole_valutate: decisione.regole.length, regole_escluse: set.escluse.length,
        esito: decisione.esito, punteggio: decisione.punteggio, regole_attivate: decisione.regole.filter((r) => r.vero).map((r) => r.cod_regola),
        cod_decisione: summary?.stato === 'valutata' ? summary.cod_decisione : null, alert_che_avrebbe_toccato: recorded.alertNuovi + recorded.alertAggiornati,
      };
      throw new PilotRollback();
    });
  } catch (err) {
    if (!(err instanceof PilotRollback)) throw err;
  }

  const t = performance.now();
  const answer = await engineRoundTrip(deps, { codAzienda, codAnagrafe: codAnagrafe!, engineTaskQueue: deps.config.temporal.engineTaskQueue });
  passi.push({ passo: 'andata_ritorno_motore', ms: ms(t) });
  return {
    pilota: true as const, annullata: true as const, ...result, motore: answer.motore, profilo_motore_da: answer.profilo_da, lettura_motore_ms: answer.lettura_ms,
    passi, totale_ms: ms(started),
  };
}

/** The engine's side: refused at once when nobody polls the queue, bounded when nobody takes the task. */
async function engineRoundTrip(deps: Deps, input: EnginePilotInput): Promise<EnginePilotAnswer> {
  const workers = await engineWorkers(deps);
  if (!workers.ok) throw serviceUnavailable(`Temporal non raggiungibile: ${workers.errore}`, 10);
  if (!workers.workers.length) throw serviceUnavailable(`Nessun worker del motore sulla coda ${input.engineTaskQueue}: avvia npm run engine`, 30);
  const client = await deps.temporal.get();
  const handle = await client.workflow.start(ENGINE_PILOT_WORKFLOW_TYPE, {
    taskQueue: deps.config.temporal.taskQueue, workflowId: `engine-pilot:${input.codAzienda}:${randomUUID()}`, args: [input],
    workflowExecutionTimeout: `${ENGINE_PILOT_WAIT_SECONDS * 2} seconds`,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      handle.result() as Promise<EnginePilotAnswer>,
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), (ENGINE_PILOT_WAIT_SECONDS + 5) * 1000); }),
    ]);
  } catch {
    await handle.terminate('pilota: nessuna risposta dal motore').catch(() => undefined);
    throw serviceUnavailable(`Nessun worker del motore ha risposto entro ${ENGINE_PILOT_WAIT_SECONDS} s sulla coda ${input.engineTaskQueue}`, 30);
  } finally {
    clearTimeout(timer);
  }
}
