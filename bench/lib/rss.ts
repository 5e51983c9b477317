import { readFileSync } from 'node:fs';

/** Memory of one process as Linux reports it (/proc/<pid>/status), in bytes. */
export interface ProcessMemory {
  /** Resident set size now (VmRSS). */
  rss: number;
  /** Highest resident set size so far (VmHWM). */
  peak: number;
  /** Resident anonymous memory (RssAnon): the heaps, without mapped files and binaries. */
  anon: number;
}

const field = (status: string, name: string): number => {
  const m = status.match(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm'));
  if (!m) throw new Error(`no ${name} in /proc status (Linux only)`);
  return Number(m[1]) * 1024;
};

export function readProcessMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: field(status, 'VmRSS'), peak: field(status, 'VmHWM'), anon: field(status, 'RssAnon') };
}

/** VmRSS of a process, in bytes. */
export function readRss(pid: number): number {
  return readProcessMemory(pid).rss;
}

export const toMB = (bytes: number) => Math.round(bytes / 1e5) / 10;

/**
 * RSS once the process has settled: sampled every `intervalMs` until no sample in the last
 * `windowMs` differs from the current one by more than `toleranceBytes` (or `maxMs` passed).
 * A process that just did work keeps freeing for a minute or two: V8 shrinks its heap in
 * steps, some seconds to tens of seconds apart, so a short window stops on a plateau between
 * two steps. `lowest` is the least RSS seen meanwhile.
 */
export async function settledRss(pid: number, opts: { intervalMs?: number; windowMs?: number; toleranceBytes?: number; maxMs?: number } = {}): Promise<ProcessMemory & { waitedMs: number; lowest: number }> {
  const interval = opts.intervalMs ?? 1000, window = opts.windowMs ?? 60_000, tolerance = opts.toleranceBytes ?? 3e6, max = opts.maxMs ?? 240_000;
  const t0 = Date.now();
  const samples: { at: number; rss: number }[] = [];
  let lowest = Infinity;
  for (;;) {
    const now = Date.now();
    const m = readProcessMemory(pid);
    lowest = Math.min(lowest, m.rss);
    samples.push({ at: now, rss: m.rss });
    while (samples.length && now - samples[0]!.at > window) samples.shift();
    const full = now - t0 >= window;
    if ((full && samples.every((s) => Math.abs(s.rss - m.rss) < tolerance)) || now - t0 >= max) return { ...m, waitedMs: now - t0, lowest };
    await new Promise((r) => setTimeout(r, interval));
  }
}
