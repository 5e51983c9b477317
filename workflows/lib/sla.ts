import { condition } from '@temporalio/workflow';

/**
 * Waits until `dueAt` or until `stop()` becomes true, whichever comes first.
 * Returns 'expired' when the deadline passed first. The deadline is absolute, so a
 * workflow that continued-as-new keeps the original due date instead of restarting it.
 */
export async function waitForDeadline(dueAt: string | Date, stop: () => boolean): Promise<'expired' | 'stopped'> {
  const remaining = new Date(dueAt).getTime() - Date.now();
  if (stop()) return 'stopped';
  if (remaining <= 0) return 'expired';
  const stopped = await condition(stop, remaining);
  return stopped ? 'stopped' : 'expired';
}

/** The due date `days` after `from` (calendar days, as the SLA setting is expressed). */
export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * 24 * 60 * 60 * 1000);
}
