import { describe, expect, it } from 'vitest';
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
});
