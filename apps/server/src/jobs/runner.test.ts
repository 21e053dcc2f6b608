import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTaskRunner } from './runner.ts';

type Jobs = { parse: { payload: { filePath: string }; result: { works: number } }; zip: { payload: { filePath: string }; result: { works: number } } };
const log = { info: () => {}, error: () => {} };
// Registration never touches the database.
const runner = () => createTaskRunner<Jobs>({ db: {} as Db, log, names: ['parse', 'zip'] });

describe('the task runner\'s handlers', () => {
  it('refuses to start while a known job has no handler, and names it', () => {
    const r = runner();
    r.register('parse', async () => ({ works: 1 }));
    expect(() => r.assertComplete()).toThrow('no handler for the job zip');
    r.register('zip', async () => ({ works: 1 }));
    expect(() => r.assertComplete()).not.toThrow();
  });

  it('refuses a job registered twice, and a name it does not know', () => {
    const r = runner();
    r.register('parse', async () => ({ works: 1 }));
    expect(() => r.register('parse', async () => ({ works: 2 }))).toThrow('job parse has two handlers');
    expect(() => r.register('other' as 'parse', async () => ({ works: 2 }))).toThrow('not one of the known jobs');
  });

  it('finishes a task only after its progress writes, in their order (a finished parse said 0 of 60 files)', async () => {
    // A database whose first progress write lands late, as on a pool a write on a busy connection does.
    const writes: Array<{ set: Record<string, unknown>; earlierDone: boolean; done: boolean }> = [];
    let claimed = false;
    const db = {
      execute: async () => ({ rows: claimed ? [] : ((claimed = true), [{ id: 't1', hub_id: 1, name: 'parse', payload: {}, attempts: 1 }]) }),
      select: () => ({ from: () => ({ where: async () => [] }) }),
      update: () => ({
        set: (set: Record<string, unknown>) => ({
          where: () => {
            const w = { set, earlierDone: writes.every((x) => x.done), done: false };
            writes.push(w);
            return new Promise<void>((resolve) => setTimeout(() => {
              w.done = true;
              resolve();
            }, writes.length === 1 ? 50 : 0));
          },
        }),
      }),
    };
    const r = createTaskRunner<Jobs>({ db: db as unknown as Db, log, names: ['parse', 'zip'] });
    r.register('parse', async (_p, ctx) => {
      ctx.progress(0, 60);
      ctx.progress(60, 60);
      return { works: 1 };
    });
    r.register('zip', async () => ({ works: 1 }));
    r.start();
    await vi.waitFor(() => expect(writes.some((w) => w.set.status === 'finished')).toBe(true), { timeout: 5_000 });
    await r.stop(1_000);
    const finish = writes.findIndex((w) => w.set.status === 'finished');
    expect(writes.slice(0, finish).map((w) => [w.set.progressDone, w.set.progressTotal])).toEqual([[0, 60], [60, 60]]);
    expect(writes[finish]!.earlierDone).toBe(true);
  });
});
