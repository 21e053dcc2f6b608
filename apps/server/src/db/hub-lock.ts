import pLimit, { type LimitFunction } from 'p-limit';

/**
 * One hub's changes of its stored files and its orders, one at a time: an order is placed and a file of it
 * cropped, deleted or uploaded again never interleave, so the check that a file is not ordered and the change
 * it allows are one step, and so are an order's re-check and its insert (API probe, 2026-11-30: an order and a
 * crop sent together both answered 200, and the ordered photo was 600×600 px instead of the 1500×1051 checked;
 * six crops at once lost the customer's original).
 * Keep in mind:
 * - within a process a hub's steps queue (p-limit of 1); across the processes of a shop on PostgreSQL they
 *   also take a session advisory lock of the hub, on a connection of a pool of its own (`sessions`), so a
 *   step holding the lock never waits for a connection another holder has;
 * - PGlite is one process with one session (an advisory lock of its own session never blocks): the queue alone;
 * - a step must not take the lock of its own hub again (it would wait for itself).
 */
export interface HubLock {
  run<T>(hubId: number, step: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The advisory lock's first key: any number the shop's database uses for nothing else (db/client.ts, db/seed/customers.ts have theirs). */
const HUB_FILES_LOCK = 7_340_103;

/** A connection of a pg.Pool, as much of it as the lock uses. */
type Session = { query(text: string, values: unknown[]): Promise<unknown>; release(err?: Error | boolean): void };

export function createHubLock(sessions?: { connect(): Promise<Session>; end(): Promise<void> }): HubLock {
  const queues = new Map<number, LimitFunction>();
  const locked = async <T>(hubId: number, step: () => Promise<T>): Promise<T> => {
    if (!sessions) return step();
    const session = await sessions.connect();
    let broken: Error | undefined;
    try {
      await session.query('select pg_advisory_lock($1, $2)', [HUB_FILES_LOCK, hubId]).catch((err: Error) => {
        broken = err;
        throw err;
      });
      try {
        return await step();
      } finally {
        // A connection that cannot unlock is closed: its session's locks go with it.
        await session.query('select pg_advisory_unlock($1, $2)', [HUB_FILES_LOCK, hubId]).catch((err: Error) => {
          broken = err;
        });
      }
    } finally {
      session.release(broken ?? false);
    }
  };
  return {
    async run(hubId, step) {
      let queue = queues.get(hubId);
      if (!queue) queues.set(hubId, (queue = pLimit(1)));
      const q = queue;
      try {
        return await q(() => locked(hubId, step));
      } finally {
        if (q.activeCount === 0 && q.pendingCount === 0 && queues.get(hubId) === q) queues.delete(hubId);
      }
    },
    close: async () => sessions?.end(),
  };
}
