import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { openDb } from './client.ts';
import { DataDirInUseError, lockDataDir, lockFileOf } from './data-dir-lock.ts';

let dataDir: string;
let lockFile: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-lock-'));
  lockFile = lockFileOf(dataDir);
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** A process that lives until killed; its pid stands for another server's. */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { pid: child.pid!, kill: async () => { child.kill('SIGKILL'); await exited; } };
}

describe('the lock of a PGlite DATA_DIR', () => {
  it('holds this process\'s pid, and is gone once released', async () => {
    const release = lockDataDir(dataDir);
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(lockFile)).toBe(false);
    // Nothing else is left beside it.
    expect(existsSync(`${lockFile}.${process.pid}`)).toBe(false);
  });

  it('is refused while a live process holds it, with a message naming the DATA_DIR and the pid', async () => {
    const other = otherProcess();
    try {
      await writeFile(lockFile, `${other.pid}\n`);
      let refusal: unknown;
      try {
        lockDataDir(dataDir);
      } catch (err) {
        refusal = err;
      }
      expect(refusal).toBeInstanceOf(DataDirInUseError);
      expect((refusal as Error).message).toBe(`数据目录 ${dataDir} 正由另一个门户进程（pid ${other.pid}）使用；请先停止它，或为本进程设置另一个 DATA_DIR。`
        + ` / DATA_DIR ${dataDir} is in use by another portal process (pid ${other.pid}): stop it or give this one another DATA_DIR.`);
      expect(await readFile(lockFile, 'utf8')).toBe(`${other.pid}\n`);
    } finally {
      await other.kill();
    }
  });

  it('is taken over from a process that died holding it (kill -9)', async () => {
    const other = otherProcess();
    await writeFile(lockFile, `${other.pid}\n`);
    await other.kill();
    const release = lockDataDir(dataDir);
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    release();
  });

  it.runIf(process.platform === 'linux')('is taken over from a killed process its parent has not reaped yet (a zombie)', async () => {
    // sh starts a child that ends a moment later, once sh has become a sleep, which never reaps it (a
    // child that ended before the exec was reaped by sh itself: no zombie, seen once in a full run).
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      await vi.waitFor(async () => expect((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]![0]).toBe('Z'), { timeout: 10_000, interval: 50 });
      await writeFile(lockFile, `${pid}\n`);
      const release = lockDataDir(dataDir);
      expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
      release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('is taken over when it names this process (a pid reused after a crash) or no pid at all', async () => {
    for (const left of [`${process.pid}\n`, '', 'garbage']) {
      await writeFile(lockFile, left);
      const release = lockDataDir(dataDir);
      expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
      release();
    }
  });

  it('is refused to a second open in this process while the first holds it', () => {
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    release();
    lockDataDir(dataDir)();
  });

  it('is not removed on release once another process has taken it over', async () => {
    const release = lockDataDir(dataDir);
    const other = otherProcess();
    try {
      await writeFile(lockFile, `${other.pid}\n`);
      release();
      expect(await readFile(lockFile, 'utf8')).toBe(`${other.pid}\n`);
    } finally {
      await other.kill();
    }
  });

  it('is taken by openDb on PGlite before the database is opened, and released by close', async () => {
    await cp(inject('pgliteTemplateDir'), dataDir, { recursive: true });
    const handle = await openDb({ dataDir });
    try {
      expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
      await expect(openDb({ dataDir })).rejects.toThrow(DataDirInUseError);
    } finally {
      await handle.close();
    }
    expect(existsSync(lockFile)).toBe(false);
  });
});
