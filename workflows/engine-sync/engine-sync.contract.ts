/**
 * The engine's sync and its pilot (docs/monitoring.md, "The engine process and its sync"). The
 * Schedule `engine-sync` starts a sweep every few minutes: each active tenant's copy brought up to
 * date by an activity on the engine's queue. The pilot's round trip is one activity on the engine's
 * queue, with a bounded wait: a queue nobody serves is an answer (no worker), not a hang.
 */
export const ENGINE_SYNC_SCHEDULE_ID = 'engine-sync';
export const ENGINE_SYNC_SWEEP_WORKFLOW_TYPE = 'engineSyncSweepWorkflow';
export const ENGINE_PILOT_WORKFLOW_TYPE = 'enginePilotWorkflow';
/** How often the copy is brought up to date (the Schedule's interval). */
export const ENGINE_SYNC_EVERY = '3 minutes';
/** How long the pilot waits for an engine worker to take its activity. */
export const ENGINE_PILOT_WAIT_SECONDS = 10;

export interface EngineSyncSweepInput { engineTaskQueue?: string }
export interface EngineSyncSweepResult { tenants: string[]; sync: { codAzienda: string; tipo: string; cod_sync: string; stato: string }[] }

export interface EnginePilotInput { engineTaskQueue?: string; codAzienda: string; codAnagrafe: string }
export interface EnginePilotAnswer {
  /** The engine worker that answered (ENGINE_INSTANCE or host:pid). */
  motore: string;
  /** The customer's profile read through the engine's store: from the copy, or from the platform when the copy is stale. */
  profilo_da: 'copia' | 'piattaforma' | 'assente';
  lettura_ms: number;
}
