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
 * RSS once the process has settled: sampled every `intervalMs` until two samples `windowMs`
 * apart differ by less than `toleranceBytes` (or `maxMs` passed). A process that just did work
 * still frees and collects for a while (V8 shrinks its heap some seconds after the work stops);
 * a figure taken at once would depend on the moment.
 */
export async function settledRss(pid: number, opts: { intervalMs?: number; windowMs?: number; toleranceBytes?: number; maxMs?: number } = {}): Promise<ProcessMemory & { waitedMs: number }> {
  const interval = opts.intervalMs ?? 1000, window = opts.windowMs ?? 15_000, tolerance = opts.toleranceBytes ?? 2e6, max = opts.maxMs ?? 120_000;
  const t0 = Date.now();
  const samples: { at: number; rss: number }[] = [];
  for (;;) {
    const now = Date.now();
    const m = readProcessMemory(pid);
    samples.push({ at: now, rss: m.rss });
    const old = samples.find((s) => now - s.at >= window && now - s.at < window + interval * 2);
    if ((old && Math.abs(old.rss - m.rss) < tolerance) || now - t0 >= max) return { ...m, waitedMs: now - t0 };
    await new Promise((r) => setTimeout(r, interval));
  }
}
