import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` of this host still runs. A killed process its parent has not reaped yet (a zombie, Linux's
 * state Z) answers signal 0 too, but holds nothing: it counts as dead (a restart waited a minute for the leases of a
 * zombie: crash probe, 2026-11-30). EPERM: it lives, as another user.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}
