/**
 * Drill: the server process dies (kill -9) in the middle of uploads and in the middle of a long parse
 * task, and is started again on the same DATA_DIR and database. Nothing the customer sent may be lost or
 * changed: every file completes byte-identical once the missing chunks are sent, and the task finishes
 * with the works an uninterrupted run gives.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it, type TestContext } from 'vitest';
import { openDb } from '../../src/db/client.ts';
import {
  accessUrlOf, drillPlace, fetchBytes, isDone, noisePngOfSize, postChunk, queryDb, sha256, sleep,
  smallJpeg, startChild, upload, type Child, type ChunkResult, type Kind, type Upload,
} from '../helpers/drill.ts';
import { makeZip } from '../helpers/zips.ts';

const KINDS: Kind[] = ['pglite', 'postgres'];

async function start(ctx: TestContext, where: { dataDir: string; databaseUrl: string | undefined }) {
  const child = await startChild({ dataDir: where.dataDir, ...(where.databaseUrl ? { databaseUrl: where.databaseUrl } : {}) });
  ctx.onTestFinished(() => child.server.stop());
  ctx.onTestFailed(() => console.error(`server ${child.url} (pid ${child.server.pid}) said:\n${child.server.output()}`));
  return child;
}

type WorkOut = { uuid: string; articleName: string; filePath: string; files: Array<{ fileName: string }> };
type TaskAnswer = { state: number; message: { status: string; progress: { done: number; total: number }; jsonContent: { works: WorkOut[]; unsupported: unknown[] } | null; error: string | null } };

async function taskStatus(c: Child, token: string, id: string): Promise<TaskAnswer> {
  const res = await c.call('GET', `/api/long-time-tasks/${id}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as TaskAnswer;
}

/** 3 folders of 100 small, different JPEGs (three works), made once for both databases. */
const album = (async () => {
  const entries: Array<[string, Buffer]> = [];
  for (const folder of ['A', 'B', 'C']) for (let i = 1; i <= 100; i++) entries.push([`${folder}/${i}.jpg`, await smallJpeg(entries.length + 1, 400, 300)]);
  return { entries, bytes: await makeZip(entries) };
})();

describe.concurrent('kill -9 and restart', () => {
  for (const kind of KINDS) {
    it(`loses no chunk of files whose upload a kill -9 interrupted, on ${kind}`, async (ctx) => {
      const where = await drillPlace(ctx, kind);
      const files: Upload[] = [
        upload('套图/大图1.png', await noisePngOfSize(2_600_000)),
        upload('套图/大图2.png', await noisePngOfSize(4_700_000)),
        upload('海报.png', await noisePngOfSize(6_600_000)),
        upload('素材.zip', await makeZip([['a.bin', randomBytes(3_000_000)], ['b.bin', randomBytes(1_500_000)]], false)),
      ];
      expect(files.map((f) => f.chunks.length)).toEqual([2, 3, 4, 3]);
      // Chunks acknowledged (answered 200) before the kill, per file.
      const acked = files.map(() => new Set<number>());
      const record = (i: number, chunk: number) => (r: ChunkResult) => {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        acked[i]!.add(chunk);
      };

      let c = await start(ctx, where);
      let token = await c.login('demo', 'demo');
      // Some chunks of several files, out of order.
      const before: Array<[number, number]> = [[0, 1], [1, 1], [1, 3], [2, 2], [2, 4]];
      for (const [i, chunk] of before) record(i, chunk)(await postChunk(c.url, token, files[i]!, chunk));

      // Then everything else at once, and the process dies while those requests are in flight.
      const inFlight = files.flatMap((f, i) => f.chunks.map((_, k) => k + 1).filter((k) => !acked[i]!.has(k))
        .map((k) => postChunk(c.url, token, f, k).then((r) => { if (r.status === 200) acked[i]!.add(k); return r; }, (err: Error) => err)));
      await Promise.race([Promise.any(inFlight), sleep(150)]);
      await c.server.kill9();
      const settled = await Promise.all(inFlight);
      const cut = settled.filter((r) => r instanceof Error).length;

      const restartedAt = Date.now();
      c = await start(ctx, where);
      // The same JWT_SECRET: a token from before the crash still works.
      expect((await c.call('GET', '/api/account', { token })).status).toBe(200);
      token = await c.login('demo', 'demo');

      // The client sends what was not acknowledged, and resends some that were.
      const done: Array<ChunkResult | undefined> = [];
      await Promise.all(files.map(async (f, i) => {
        const missing = f.chunks.map((_, k) => k + 1).filter((k) => !acked[i]!.has(k));
        const resend = [...acked[i]!].slice(0, 1);
        const answers = await Promise.all([...missing, ...resend].map((k) => postChunk(c.url, token, f, k)));
        for (const a of answers) expect(a.status, `${f.filePath}: ${JSON.stringify(a.body)}`).toBe(200);
        done[i] = answers.find(isDone);
        // An assembly cut by the kill was given back when the new process started (its claimant is
        // dead), so a chunk sent again completes it now, not after the 120 s stale-claim wait.
        for (let tries = 0; !done[i] && tries < 20; tries++) {
          await sleep(250);
          const again = await postChunk(c.url, token, f, 1);
          expect(again.status, JSON.stringify(again.body)).toBe(200);
          if (isDone(again)) done[i] = again;
        }
      }));
      const recoveredMs = Date.now() - restartedAt;
      for (const [i, f] of files.entries()) {
        const url = accessUrlOf(done[i] ?? { status: 0, body: { state: 0, message: '' } });
        expect(url, `${f.filePath} never completed after the restart:\n${c.server.output()}`).toBeDefined();
        const served = await fetchBytes(c.url, url!);
        expect(served.status).toBe(200);
        expect(sha256(served.bytes), `${f.filePath} is not what was sent`).toBe(sha256(f.bytes));
      }
      console.info(`[kill/${kind}] upload: ${files.length} files, ${files.reduce((n, f) => n + f.bytes.length, 0)} bytes, ${cut} requests cut by the kill, all byte-identical ${recoveredMs} ms after the restart`);
    }, 240_000);

    it(`finishes a zip parse that a kill -9 interrupted, with the same works and no duplicates, on ${kind}`, async (ctx) => {
      const where = await drillPlace(ctx, kind);
      const { entries, bytes } = await album;
      const zip = upload('相册.zip', bytes);

      let c = await start(ctx, where);
      let token = await c.login('demo', 'demo');
      let last: ChunkResult | undefined;
      for (let k = 1; k <= zip.chunks.length; k++) last = await postChunk(c.url, token, zip, k);
      expect(last && isDone(last), JSON.stringify(last?.body)).toBe(true);
      const parse = await c.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${zip.folderId}/相册.zip`)}`, { token });
      const parsed = (await parse.json()) as { state: number; message: { taskId: string } };
      expect(parsed.state).toBe(100);
      const taskId = parsed.message.taskId;

      // Kill while the task runs and has made progress.
      let seen: TaskAnswer | undefined;
      for (const until = Date.now() + 60_000; Date.now() < until; await sleep(25)) {
        seen = await taskStatus(c, token, taskId);
        if (seen.message.status !== 'running' || seen.message.progress.done > 0) break;
      }
      expect(seen?.message.status, 'the task ended before it could be killed: make the zip bigger').toBe('running');
      expect(seen!.message.progress.done).toBeGreaterThan(0);
      await c.server.kill9();
      const killedAt = Date.now();

      c = await start(ctx, where);
      token = await c.login('demo', 'demo');
      let end: TaskAnswer | undefined;
      for (const until = Date.now() + 150_000; Date.now() < until; await sleep(500)) {
        end = await taskStatus(c, token, taskId);
        if (end.message.status !== 'running') break;
      }
      const recoveredMs = Date.now() - killedAt;
      expect(end?.message.status, `the task did not finish after the restart:\n${c.server.output()}`).toBe('finished');
      // The new process took the dead one's task back at start, not when its 60 s lease ran out.
      expect(recoveredMs, 'the task waited for the dead process\'s lease to run out').toBeLessThan(60_000);
      const works = end!.message.jsonContent!.works;
      expect(works.map((w) => [w.articleName, w.files.length])).toEqual([['A', 100], ['B', 100], ['C', 100]]);
      for (const w of works) expect(w.files.map((f) => f.fileName)).toEqual(Array.from({ length: 100 }, (_, i) => `${i + 1}.jpg`));
      expect(end!.message.progress.done).toBe(end!.message.progress.total);

      // The database: the task ran twice (killed once), and each work exists once.
      await c.server.stop();
      const q = async <R,>(text: string): Promise<R[]> => {
        if (where.databaseUrl) return queryDb(where.databaseUrl, text) as Promise<R[]>;
        const h = await openDb({ dataDir: where.dataDir });
        try {
          return ((await h.db.execute(sql.raw(text))) as unknown as { rows: R[] }).rows;
        } finally {
          await h.close();
        }
      };
      const [task] = await q<{ status: string; attempts: number }>(`select status, attempts from long_tasks where id = '${taskId}'`);
      expect(task).toMatchObject({ status: 'finished', attempts: 2 });
      const stored = await q<{ uuid: string; article_name: string }>(`select uuid, article_name from works where file_path like 'unzip/${zip.folderId}/%'`);
      expect(stored.map((w) => w.uuid).sort()).toEqual(works.map((w) => w.uuid).sort());
      console.info(`[kill/${kind}] parse: killed at ${seen!.message.progress.done}/${seen!.message.progress.total}, finished ${recoveredMs} ms after the kill, ${works.length} works of ${entries.length} files`);
    }, 240_000);
  }
});
