import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot (/proc only): tells a process from a later one reusing its pid. */
  startTicks?: string;
  command: string;
}

/** /proc/<pid>/stat: the command is in parentheses and may contain spaces, so fields are counted after the last ')'. */
function fromProcStat(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    // f[0] state, f[1] ppid, f[2] pgrp, ..., f[19] starttime. A zombie has already exited: only its parent's wait is missing.
    if (f[0] === 'Z') return undefined;
    return { pid, ppid: Number(f[1]), pgid: Number(f[2]), startTicks: f[19], command };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every process of the machine (Linux /proc, otherwise `ps`). */
export function listProcesses(): ProcessInfo[] {
  if (existsSync('/proc/self/stat')) {
    return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => fromProcStat(Number(d))).filter((p): p is ProcessInfo => !!p);
  }
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,comm='], { encoding: 'utf8' });
  return out.split('\n').map((l) => l.trim().split(/\s+/)).filter((c) => c.length >= 5 && !c[3]!.startsWith('Z'))
    .map(([pid, ppid, pgid, , ...cmd]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), command: cmd.join(' ') }));
}

/** The processes descending from `root` (children, their children, ...), parents first. */
export function descendants(root: number, all: ProcessInfo[] = listProcesses()): ProcessInfo[] {
  const byParent = new Map<number, ProcessInfo[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const found: ProcessInfo[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether this exact process (same pid and, where known, same start time) is still running. */
export function stillRunning(p: ProcessInfo): boolean {
  if (existsSync('/proc/self/stat')) {
    const now = fromProcStat(p.pid);
    return !!now && (p.startTicks === undefined || now.startTicks === p.startTicks);
  }
  try { process.kill(p.pid, 0); return true; } catch { return false; }
}

/** Sends a signal to a process and, when it leads its own process group, to the whole group. */
export function signalProcess(p: ProcessInfo, signal: NodeJS.Signals): void {
  try { process.kill(p.pid, signal); } catch { /* already gone */ }
  if (p.pgid === p.pid && p.pgid !== process.pid) {
    try { process.kill(-p.pgid, signal); } catch { /* already gone */ }
  }
}
