/**
 * The BenchContext of a script in bench/tools/, run on its own (not by the runner): temporary directories and
 * deferred clean-ups, run by `cleanUp()` in reverse order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchContext } from './types.ts';

export function toolContext(): { ctx: BenchContext; cleanUp(): Promise<void> } {
  const cleanups: Array<() => Promise<void> | void> = [];
  const ctx: BenchContext = {
    quick: false,
    repoRoot: path.resolve(import.meta.dirname, '../..'),
    log: (m) => process.stderr.write(`${m}\n`),
    async tmpDir(prefix) {
      const dir = await mkdtemp(path.join(os.tmpdir(), `portal-bench-${prefix}-`));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return dir;
    },
    defer: (fn) => void cleanups.push(fn),
  };
  return {
    ctx,
    async cleanUp() {
      for (const fn of cleanups.reverse()) await fn();
    },
  };
}
