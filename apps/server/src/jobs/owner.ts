import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { processAlive } from '../process-alive.ts';

/**
 * Who holds a claim (a long task's lease, an upload being assembled): `<host>:<pid>:<random>`,
 * one per process. Another process on the same host can tell from it whether the holder is gone.
 */
export const PROCESS_OWNER = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** The prefix every owner of this host starts with, for a `like` query. */
export const HOST_PREFIX = `${os.hostname()}:`;

/**
 * Is `owner` a process of this host that no longer runs? Its pid is not alive, or it is our own pid
 * under another owner id (a restarted container is pid 1 again). Owners of other hosts cannot be
 * seen from here: false.
 */
export function isDeadHere(owner: string | null | undefined): boolean {
  if (!owner?.startsWith(HOST_PREFIX)) return false;
  const pid = Number(owner.slice(HOST_PREFIX.length).split(':')[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return owner !== PROCESS_OWNER;
  return !processAlive(pid);
}
