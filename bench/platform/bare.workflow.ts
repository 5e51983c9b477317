import { condition, defineUpdate, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';

/** The baseline's workflows: the least a record process could do, on its own task queue. */
export const bump = defineUpdate<number, [string]>('bump');
export const bumpWithActivity = defineUpdate<number, [string]>('bumpWithActivity');
export const bumpWithLocalActivity = defineUpdate<number, [string]>('bumpWithLocalActivity');

interface Noop { noop(x: string): Promise<string> }
const acts = proxyActivities<Noop>({ startToCloseTimeout: '5 seconds' });
const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '5 seconds' });

export async function bareRecord(): Promise<number> {
  let n = 0;
  setHandler(bump, () => ++n);
  setHandler(bumpWithActivity, async (x) => { await acts.noop(x); return ++n; });
  setHandler(bumpWithLocalActivity, async (x) => { await local.noop(x); return ++n; });
  await condition(() => n >= 1_000_000);
  return n;
}
