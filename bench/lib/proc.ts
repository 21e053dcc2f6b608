import { readFileSync } from 'node:fs';
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

/** CPU seconds (user + system) a process has used so far; clock ticks of 1/100 s, as on Linux. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
