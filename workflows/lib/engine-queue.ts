/**
 * The monitoring engine's task queue (docs/monitoring.md, "The engine is a component"): the
 * heavy evaluation work (the daily batch's chunks, replays, backtests, syncs) runs on this queue,
 * which `npm run engine` workers serve (and `npm start`'s worker, and the test stack's). This is
 * the one constant every side reads: the configuration (`ENGINE_TASK_QUEUE`, src/config.ts) and
 * the workflows that put activities on the queue (their input carries the configured name, so a
 * deployment that renames the queue needs no change of workflow code). Pure: workflows import it.
 */
export const DEFAULT_ENGINE_TASK_QUEUE = 'monitoring-engine';
