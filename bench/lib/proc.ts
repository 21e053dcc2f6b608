import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from './timing.ts';

const MB = 1e6;

/** Resident memory of a process, in MB (10^6 bytes): now (VmRSS) and the peak since it started (VmHWM). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
    return (Number(m[1]) * 1024) / MB;
  };
  return { rssMb: kb('VmRSS'), peakMb: kb('VmHWM') };
}

/**
 * Lets a freshly started process settle (garbage collection after boot, lazy pages) and answers
 * its resident memory once two readings a second apart agree within 2 MB, or after `maxMs`.
 */
export async function settledRss(pid: number, maxMs = 5_000): Promise<number> {
  let last = memoryOf(pid).rssMb;
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    await sleep(1_000);
    const now = memoryOf(pid).rssMb;
    if (Math.abs(now - last) < 2) return now;
    last = now;
  }
  return last;
}

/** CPU seconds (user + system) in a /proc stat file; clock ticks of 1/100 s, as on Linux. */
function cpuSecondsIn(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds (user + system) a process has used so far, all its threads together. */
export function cpuSecondsOf(pid: number): number {
  return cpuSecondsIn(`/proc/${pid}/stat`);
}

/** CPU seconds a process's main thread (the JavaScript event loop of a Node.js process) has used so far. */
export function mainThreadCpuSecondsOf(pid: number): number {
  return cpuSecondsIn(`/proc/${pid}/task/${pid}/stat`);
}

/** CPU seconds used so far by every process named `name` (a PostgreSQL server's backends: `postgres`), 0 where none runs. */
export function cpuSecondsOfProcesses(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) total += cpuSecondsIn(`/proc/${entry}/stat`);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * CPU seconds the whole machine has spent so far, every process and the kernel's own threads
 * (writeback, the filesystem's journal, the network stack): the first line of /proc/stat, less
 * idle and I/O wait, in clock ticks of 1/100 s.
 */
export function machineCpuSeconds(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already within user).
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / 100;
}
