import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { condition, defineUpdate, proxyActivities, proxyLocalActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';

/** The baseline's workflows: the least a record process could do, on its own task queue. */
export const bump = defineUpdate<number, [string]>('bump');
export const bumpWithActivity = defineUpdate<number, [string]>('bumpWithActivity');
export const bumpWithLocalActivity = defineUpdate<number, [string]>('bumpWithLocalActivity');
export const bumpWithLocalActivityAndStatus = defineUpdate<number, [string]>('bumpWithLocalActivityAndStatus');

/** The app's records publish their status (temporal/search-attributes.ts registers it on the namespace). */
const RECORD_STATUS = defineSearchAttributeKey('RecordStatus', SearchAttributeType.KEYWORD);

interface Noop { noop(x: string): Promise<string> }
const acts = proxyActivities<Noop>({ startToCloseTimeout: '5 seconds' });
const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '5 seconds' });

export async function bareRecord(): Promise<number> {
  let n = 0;
  setHandler(bump, () => ++n);
  setHandler(bumpWithActivity, async (x) => { await acts.noop(x); return ++n; });
  setHandler(bumpWithLocalActivity, async (x) => { await local.noop(x); return ++n; });
  setHandler(bumpWithLocalActivityAndStatus, async (x) => {
    await local.noop(x);
    upsertSearchAttributes([{ key: RECORD_STATUS, value: `s${n % 4}` }]);
    return ++n;
  });
  await condition(() => n >= 1_000_000);
  return n;
}
