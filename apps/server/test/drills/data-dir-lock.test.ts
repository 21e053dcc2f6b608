/**
 * Drill: a second server process started on the DATA_DIR of a running one (PGlite) refuses to start
 * before it touches the database, and says why; the first keeps serving its data. A server killed with
 * kill -9 leaves its lock behind, and the next start on that DATA_DIR takes it over.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it, type TestContext } from 'vitest';
import type { OpenDraftAnswer, SavedDraftAnswer } from '@portal/contract';
import { lockFileOf } from '../../src/db/data-dir-lock.ts';
import { pgliteDataDir, removeDir, startChild, type Child } from '../helpers/drill.ts';

async function start(ctx: TestContext, dataDir: string) {
  const child = await startChild({ dataDir });
  ctx.onTestFinished(() => child.server.stop());
  ctx.onTestFailed(() => console.error(`server ${child.url} (pid ${child.server.pid}) said:\n${child.server.output()}`));
  return child;
}

/** The demo customer's open draft, as the page loads it. */
async function openDraft(c: Child) {
  const token = await c.login('demo', 'demo');
  const res = await c.call('GET', '/api/batch-drafts/open', { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as OpenDraftAnswer).draft;
}

describe('one server process per PGlite DATA_DIR', () => {
  it('refuses a second process on a DATA_DIR in use, naming the holder, and takes over the lock of a killed one', async (ctx) => {
    const dataDir = await pgliteDataDir();
    ctx.onTestFinished(() => removeDir(dataDir));
    const first = await start(ctx, dataDir);
    const token = await first.login('demo', 'demo');
    const created = await first.call('POST', '/api/batch-drafts', { token, body: { document: { format: 1, works: [] } } });
    expect(created.status, await created.clone().text()).toBe(200);
    const draftId = ((await created.json()) as SavedDraftAnswer).id;

    // startServer throws with the exit code and the output when the process ends before it is ready.
    const refusal = await startChild({ dataDir }).then(
      async (second) => {
        await second.server.kill9();
        return `a second server started on ${dataDir} (pid ${second.server.pid}):\n${second.server.output()}`;
      },
      (err: Error) => err.message,
    );
    expect(refusal).toMatch(/exited \(code [1-9]\d*, signal null\)/);
    expect(refusal).toContain(`数据目录 ${dataDir} 正由另一个门户进程（pid ${first.server.pid}）使用；请先停止它，或为本进程设置另一个 DATA_DIR。`);
    expect(refusal).toContain(`DATA_DIR ${dataDir} is in use by another portal process (pid ${first.server.pid}): stop it or give this one another DATA_DIR.`);
    // Said plainly: no stack trace.
    expect(refusal).not.toMatch(/^\s+at /m);

    // The first still serves, with its data.
    expect((await first.call('GET', '/api/health')).status).toBe(200);
    expect(await openDraft(first)).toMatchObject({ id: draftId, version: 1 });

    // Killed without a chance to let go of its lock: the next start takes it over.
    await first.server.kill9();
    expect(await readFile(lockFileOf(dataDir), 'utf8')).toBe(`${first.server.pid}\n`);
    const again = await start(ctx, dataDir);
    expect((await again.call('GET', '/api/health')).status).toBe(200);
    expect(await openDraft(again)).toMatchObject({ id: draftId, version: 1 });
  }, 60_000);
});
