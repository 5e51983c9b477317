import { withPlatform, type PlatformDb } from '../../db/tenant';

export interface RequestLimit { key: string; max: number; windowMinutes: number }

/**
 * Counts one request against each limit (fixed windows in the login_throttle table, with
 * keys of their own) and returns the seconds to wait when any is exceeded, else 0. Public
 * routes that create or send something use it: the answer there cannot depend on who asks.
 */
export async function countRequest(db: PlatformDb, limits: RequestLimit[]): Promise<number> {
  return withPlatform(db, null, async (trx) => {
    let retry = 0;
    for (const l of limits) {
      const { rows } = await trx.raw(
        `insert into login_throttle (key, failures, window_start, blocked_until) values (?, 1, now(), null)
         on conflict (key) do update set
           failures = case when login_throttle.window_start < now() - make_interval(mins => ?) then 1 else login_throttle.failures + 1 end,
           window_start = case when login_throttle.window_start < now() - make_interval(mins => ?) then now() else login_throttle.window_start end
         returning failures, window_start`,
        [l.key, l.windowMinutes, l.windowMinutes],
      );
      const r = rows[0] as { failures: number; window_start: Date } | undefined;
      if (r && r.failures > l.max) retry = Math.max(retry, Math.ceil((new Date(r.window_start).getTime() + l.windowMinutes * 60_000 - Date.now()) / 1000));
    }
    return Math.max(0, retry);
  });
}
