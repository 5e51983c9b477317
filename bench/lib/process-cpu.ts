import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (getconf CLK_TCK: 100 on Linux). */
const TICKS = 100;

/**
 * CPU time (ms, user and system) of a process and every process below it (the app: Node, its
 * PostgreSQL and Temporal), the children it has reaped included: what a figure cost in CPU,
 * whatever else ran on the machine. On a shared machine events/s follow the load; CPU per event
 * does not, and 1,000 ms × cores ÷ (CPU ms per event) is the ceiling on an idle machine.
 * Linux only (/proc); undefined elsewhere.
 */
export function treeCpuMs(rootPid: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // Fields after the command (which may hold spaces) in parentheses: state ppid ... utime(14) stime(15) cutime(16) cstime(17).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // Gone meanwhile.
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  let ticks = 0;
  const walk = (pid: number) => {
    ticks += procs.get(pid)?.ticks ?? 0;
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(rootPid);
  return (ticks * 1000) / TICKS;
}

/**
 * The tree's CPU rate (ms per second) while nothing is asked of it: Temporal's dev server, the audit
 * sealer's polling, PostgreSQL's background work. Subtracted from a figure's CPU, so that a slow
 * figure does not charge its events with the background's time.
 */
export async function idleCpuMsPerSecond(rootPid: number, seconds = 5): Promise<number | undefined> {
  const a = treeCpuMs(rootPid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const b = treeCpuMs(rootPid);
  return a === undefined || b === undefined ? undefined : (b - a) / seconds;
}
