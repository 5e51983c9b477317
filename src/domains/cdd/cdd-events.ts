import type { MachineActor } from '../../../workflows/lib/machine';
import { initiateCdd, type CddDeps, type InitiateCddResult } from './cdd-task.commands';
import { riskClassChangeTrigger } from './cdd-triggers';

/**
 * For the risk area: a customer's risk class changed (a released assessment, an override).
 * Opens a CDD task at the level the new class calls for, or joins the open one; the same
 * change (`riferimento`: the assessment's id) never opens two. The completed task schedules the
 * next periodic review by the new class and cancels the old one.
 */
export function onRiskClassChanged(deps: CddDeps, p: {
  codAzienda: string; actor: MachineActor; codAnagrafe: string; da: string | null; a: string; riferimento: string;
}): Promise<InitiateCddResult> {
  const t = riskClassChangeTrigger(p);
  return initiateCdd(deps, { codAzienda: p.codAzienda, actor: p.actor, ...t });
}
