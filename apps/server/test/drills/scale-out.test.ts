/**
 * Drill: two server processes behind one address, as docs/architecture.md "Scaling out" describes: one
 * PostgreSQL database, one shared DATA_DIR, the same JWT_SECRET. A login on one works on the other;
 * chunks of one file sent to both assemble once and byte-identical; a long task runs exactly once.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessUrlOf, createPgDatabase, PG_ADMIN_URL, errorOf, fetchBytes, isDone, noisePngOfSize, pgliteDataDir, postChunk, queryDb, removeDir, sha256, sleep,
  smallJpeg, startChild, upload, usePostgres, walkFiles, type Child, type ChunkResult, type Upload,
} from '../helpers/drill.ts';
import { makeZip } from '../helpers/zips.ts';
import { MIGRATIONS_DIR, openDb } from '../../src/db/client.ts';
import { withDatabase } from '../global-setup.ts';

type TaskAnswer = { message: { status: string; progress: { done: number; total: number }; jsonContent: { works: Array<{ uuid: string; articleName: string; files: unknown[] }> } | null; error: string | null } };

describe('two server processes on one database and one DATA_DIR', () => {
  let a: Child;
  let b: Child;
  let dataDir: string;
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let unmark: () => Promise<void>;

  beforeAll(async () => {
    unmark = await usePostgres();
    dataDir = await pgliteDataDir();
    db = await createPgDatabase();
    [a, b] = await Promise.all([startChild({ dataDir, databaseUrl: db.url }), startChild({ dataDir, databaseUrl: db.url })]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.server.stop(), b?.server.stop()]);
    await db?.drop().catch(() => {});
    await removeDir(dataDir);
    await unmark?.();
  }, 120_000);

  it('accepts a token of one process on the other', async () => {
    const fromA = await a.login('demo', 'demo');
    const fromB = await b.login('partial', 'partial');
    const onB = await b.call('GET', '/api/account', { token: fromA });
    expect(onB.status).toBe(200);
    expect(await onB.json()).toMatchObject({ login: 'demo', customerHubId: 1 });
    expect(await (await a.call('GET', '/api/account', { token: fromB })).json()).toMatchObject({ login: 'partial', customerHubId: 2 });
  });

  it('assembles files whose chunks go to both processes, each exactly once and byte-identical', async () => {
    const token = await a.login('demo', 'demo');
    const files: Upload[] = [];
    for (let i = 0; i < 6; i++) files.push(upload(`轮询/${i}.png`, await noisePngOfSize(4_500_000 + i * 10_000)));
    // Alternately to A and B, in order, for the first file; then every chunk of the others to both at once.
    const first = files[0]!;
    const answers: ChunkResult[] = [];
    for (let k = 1; k <= first.chunks.length; k++) answers.push(await postChunk((k % 2 ? a : b).url, token, first, k));
    await Promise.all(files.slice(1).map(async (u) => {
      const all = await Promise.all(u.chunks.flatMap((_, k) => [postChunk(a.url, token, u, k + 1), postChunk(b.url, token, u, k + 1)]));
      answers.push(...all);
    }));
    const logs = () => `process A said:\n${a.server.output().slice(-3000)}\nprocess B said:\n${b.server.output().slice(-3000)}`;
    for (const r of answers) expect(r.status, `${errorOf(r)}\n${logs()}`).toBe(200);

    for (const u of files) {
      // Once complete, any chunk on either process answers the stored file.
      const [onA, onB] = await Promise.all([postChunk(a.url, token, u, 1), postChunk(b.url, token, u, 2)]);
      expect(isDone(onA) && isDone(onB), `${u.filePath}: ${JSON.stringify([onA.body, onB.body])}`).toBe(true);
      for (const [server, r] of [[a, onA], [b, onB]] as const) {
        expect(sha256((await fetchBytes(server.url, accessUrlOf(r)!)).bytes), u.filePath).toBe(sha256(u.bytes));
      }
    }
    // Exactly once: one stored row, one finished upload, nothing temporary left on the shared disk.
    const rows = await queryDb<{ path: string; n: string }>(db.url, `select path, count(*) as n from stored_files where path like 'upload/%/轮询/%' group by path`);
    expect(rows).toHaveLength(files.length);
    for (const r of rows) expect(Number(r.n)).toBe(1);
    const ups = await queryDb<{ status: string }>(db.url, `select status from uploads where file_path like '轮询/%'`);
    expect(ups.map((u) => u.status)).toEqual(files.map(() => 'done'));
    const left = walkFiles(path.join(dataDir, 'files')).filter((f) => /\.tmp-|\.assembling|[/\\]\.chunks[/\\]/.test(f));
    expect(left).toEqual([]);
  }, 120_000);

  it('runs a long task started on one process exactly once, with no duplicated works', async () => {
    const token = await a.login('demo', 'demo');
    const zips: Upload[] = [];
    for (let z = 0; z < 4; z++) {
      const entries: Array<[string, Buffer]> = [];
      for (const folder of ['甲', '乙']) for (let i = 1; i <= 40; i++) entries.push([`${folder}/${i}.jpg`, await smallJpeg(z * 1000 + entries.length)]);
      zips.push(upload(`批${z}.zip`, await makeZip(entries), randomUUID()));
    }
    for (const [i, u] of zips.entries()) {
      const r = await postChunk((i % 2 ? b : a).url, token, u, 1);
      expect(isDone(r), JSON.stringify(r.body)).toBe(true);
    }
    // Started on B (odd zips on A), polled on both.
    const taskIds: string[] = [];
    for (const [i, u] of zips.entries()) {
      const res = await (i % 2 ? a : b).call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(`upload/${u.folderId}/${u.filePath}`)}`, { token });
      const body = (await res.json()) as { state: number; message: { taskId: string } };
      expect(body.state, JSON.stringify(body)).toBe(100);
      taskIds.push(body.message.taskId);
    }
    const finished: TaskAnswer[] = [];
    for (const id of taskIds) {
      let last: TaskAnswer | undefined;
      for (const until = Date.now() + 60_000; Date.now() < until; await sleep(200)) {
        last = (await (await a.call('GET', `/api/long-time-tasks/${id}`, { token })).json()) as TaskAnswer;
        if (last.message.status !== 'running') break;
      }
      expect(last?.message.status, JSON.stringify(last)).toBe('finished');
      const onB = (await (await b.call('GET', `/api/long-time-tasks/${id}`, { token })).json()) as TaskAnswer;
      expect(onB).toEqual(last);
      finished.push(last!);
    }
    for (const t of finished) expect(t.message.jsonContent!.works.map((w) => [w.articleName, w.files.length])).toEqual([['甲', 40], ['乙', 40]]);

    const tasks = await queryDb<{ id: string; status: string; attempts: number; locked_by: string | null }>(db.url, 'select id, status, attempts, locked_by from long_tasks where id = any($1)', [taskIds]);
    expect(tasks.map((t) => [t.status, t.attempts])).toEqual(taskIds.map(() => ['finished', 1]));
    for (const [i, u] of zips.entries()) {
      const works = await queryDb<{ uuid: string }>(db.url, `select uuid from works where file_path like $1`, [`unzip/${u.folderId}/%`]);
      expect(works.map((w) => w.uuid).sort()).toEqual(finished[i]!.message.jsonContent!.works.map((w) => w.uuid).sort());
    }
    const workers = new Set(tasks.map((t) => t.locked_by?.split(':')[1]));
    console.info(`[scale-out] ${tasks.length} tasks each run once (attempts 1) by ${workers.size} process(es); works not duplicated`);
  }, 120_000);

  it('leaves both processes answering', async () => {
    const token = await b.login('demo', 'demo');
    for (const s of [a, b]) {
      expect((await s.call('GET', '/api/health')).status).toBe(200);
      expect((await s.call('GET', '/api/customer-hubs/getProductsPage/1?page=0&size=5', { token })).status).toBe(200);
    }
  });
});

describe('processes starting together on an empty PostgreSQL database', () => {
  it('migrate it once: one runs the migrations while the others wait', async () => {
    const unmarkPg = await usePostgres();
    const name = `portal_test_${process.pid}_empty_${randomUUID().slice(0, 8)}`;
    await queryDb(PG_ADMIN_URL, `create database ${name}`);
    const url = withDatabase(PG_ADMIN_URL, name);
    try {
      const handles = await Promise.all([openDb({ databaseUrl: url }), openDb({ databaseUrl: url }), openDb({ databaseUrl: url })]);
      await Promise.all(handles.map((h) => h.close()));
      const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
      const applied = await queryDb<{ n: number }>(url, 'select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied[0]?.n).toBe(journal.entries.length);
      const hubs = await queryDb<{ n: number }>(url, 'select count(*)::int as n from customer_hubs');
      expect(hubs[0]?.n).toBe(0);
    } finally {
      await queryDb(PG_ADMIN_URL, `drop database if exists ${name} with (force)`);
      await unmarkPg();
    }
  }, 120_000);
});
