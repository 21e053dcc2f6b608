import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOST_PREFIX, PROCESS_OWNER, isDeadHere } from './owner.ts';

/** A process that exits while its parent (a `sleep`) never reaps it: a zombie for a few seconds. */
async function zombiePid(): Promise<{ pid: number; stop: () => void }> {
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  return { pid, stop: () => parent.kill('SIGKILL') };
}

describe('isDeadHere', () => {
  it('tells a running process of this host from a gone one, a zombie counted as gone (a restart waited for its leases)', async () => {
    expect(isDeadHere(PROCESS_OWNER)).toBe(false);
    expect(isDeadHere(`${HOST_PREFIX}${process.pid}:another`)).toBe(true);
    expect(isDeadHere(`other-host:${process.pid}:x`)).toBe(false);
    const { pid, stop } = await zombiePid();
    try {
      await expect.poll(() => isDeadHere(`${HOST_PREFIX}${pid}:x`), { timeout: 3000 }).toBe(true);
    } finally {
      stop();
    }
  });
});
