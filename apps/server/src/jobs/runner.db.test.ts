import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyDataDir } from '../../test/helpers/data-dir.ts';
import { openDb, type DbHandle } from '../db/client.ts';
import { customerHubs, longTasks } from '../db/schema/index.ts';
import { createTaskRunner } from './runner.ts';

type Jobs = { slow: { payload: { n: number }; result: { runs: number } } };
const log = { info: () => {}, error: () => {} };

/** The runner over a real database (PGlite): what a restart of the server does to a task in flight. */
describe('the task runner across restarts', () => {
  let handle: DbHandle;
  let hubId: number;

  beforeAll(async () => {
    handle = await openDb({ dataDir: await emptyDataDir('runner-') });
    [{ id: hubId }] = await handle.db.insert(customerHubs).values({ name: '任务测试' }).returning({ id: customerHubs.id }) as [{ id: number }];
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('a task whose server is stopped (a restart, an upgrade) four times while it runs still runs to its end', async () => {
    // Each stop gave the task back and kept the claim counted: the fourth claim failed it with 任务多次失败，请重新上传,
    // though it had never failed.
    let runs = 0;
    const runner = (hold: boolean) => {
      const r = createTaskRunner<Jobs>({ db: handle.db, log, names: ['slow'], pollMs: 20 });
      r.register('slow', async (_p, ctx) => {
        runs++;
        // As a handler does when its server stops: the signal aborts what it is doing.
        if (hold) await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))));
        return { runs };
      });
      return r;
    };
    const first = runner(true);
    const id = await first.enqueue(hubId, 'slow', { n: 1 });
    let current = first;
    try {
      for (let stop = 1; stop <= 4; stop++) {
        current.start();
        await vi.waitFor(() => expect(runs).toBe(stop), { timeout: 5_000 });
        await current.stop(0);
        current = runner(stop < 4);
      }
      current.start();
      await vi.waitFor(async () => {
        const [task] = await handle.db.select().from(longTasks).where(eq(longTasks.id, id));
        expect([task?.status, task?.error, task?.result]).toEqual(['finished', null, { runs: 5 }]);
      }, { timeout: 5_000 });
    } finally {
      await current.stop(0);
    }
  });

  it('a task that keeps failing unexpectedly fails for good after three tries, with the reason', async () => {
    const r = createTaskRunner<Jobs>({ db: handle.db, log, names: ['slow'], pollMs: 20 });
    let tries = 0;
    r.register('slow', async () => {
      tries++;
      throw new Error('boom');
    });
    const id = await r.enqueue(hubId, 'slow', { n: 2 });
    r.start();
    try {
      await vi.waitFor(async () => {
        const [task] = await handle.db.select().from(longTasks).where(eq(longTasks.id, id));
        expect([task?.status, task?.error]).toEqual(['failed', '任务执行失败，请重新上传']);
      }, { timeout: 15_000 });
    } finally {
      await r.stop(0);
    }
    expect(tries).toBe(3);
  });
});
