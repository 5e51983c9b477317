import { withPlatform, type PlatformDb } from '../../db/tenant';

/**
 * Sign-in throttling on table login_throttle, one row per key ("user:<name>" or "ip:<address>").
 * Failures are counted in a fixed window; reaching the limit blocks the key until blocked_until.
 * Unknown usernames are counted too, so throttling does not reveal which accounts exist.
 */
export interface ThrottlePolicy { maxFailures: number; windowMinutes: number; blockMinutes: number }

export const ACCOUNT_POLICY: ThrottlePolicy = { maxFailures: 5, windowMinutes: 15, blockMinutes: 15 };
export const ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 20, windowMinutes: 15, blockMinutes: 15 };

export interface ThrottleSubject { username: string; ip: string }

export const accountKey = (username: string) => `user:${username.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;

const keysOf = (s: ThrottleSubject): [string, ThrottlePolicy][] => [
  [accountKey(s.username), ACCOUNT_POLICY],
  [addressKey(s.ip), ADDRESS_POLICY],
];

/** Seconds until the subject may try again, or 0 when neither its account nor its address is blocked. */
export async function blockedFor(db: PlatformDb, s: ThrottleSubject): Promise<number> {
  const rows = await withPlatform(db, null, (trx) =>
    trx('login_throttle').whereIn('key', keysOf(s).map(([k]) => k)).andWhere('blocked_until', '>', new Date()).select('blocked_until'));
  const until = Math.max(0, ...rows.map((r: { blocked_until: Date }) => new Date(r.blocked_until).getTime()));
  return until ? Math.max(1, Math.ceil((until - Date.now()) / 1000)) : 0;
}

/** Counts one failure for the account and the address; returns the block in seconds if this one reached a limit. */
export async function recordFailure(db: PlatformDb, s: ThrottleSubject): Promise<number> {
  let blocked = 0;
  await withPlatform(db, null, async (trx) => {
    for (const [key, p] of keysOf(s)) {
      // One statement, so concurrent failures cannot both read a stale count.
      const { rows } = await trx.raw(
        `insert into login_throttle (key, failures, window_start, blocked_until) values (?, 1, now(), null)
         on conflict (key) do update set
           failures = case when login_throttle.window_start < now() - make_interval(mins => ?) then 1 else login_throttle.failures + 1 end,
           window_start = case when login_throttle.window_start < now() - make_interval(mins => ?) then now() else login_throttle.window_start end
         returning failures`,
        [key, p.windowMinutes, p.windowMinutes],
      );
      if ((rows[0]?.failures ?? 0) >= p.maxFailures) {
        await trx('login_throttle').where({ key }).update({ blocked_until: new Date(Date.now() + p.blockMinutes * 60_000), failures: 0, window_start: new Date() });
        blocked = Math.max(blocked, p.blockMinutes * 60);
      }
    }
  });
  return blocked;
}

/** A successful sign-in clears the account's counter (not the address's: one good account must not unlock spraying). */
export async function recordSuccess(db: PlatformDb, s: ThrottleSubject): Promise<void> {
  await withPlatform(db, null, (trx) => trx('login_throttle').where({ key: accountKey(s.username) }).andWhere((q) => q.whereNull('blocked_until').orWhere('blocked_until', '<=', new Date())).delete());
}
