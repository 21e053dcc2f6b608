/**
 * Drill: many customers upload at once. On PostgreSQL 20 logins of hub 1 and 3 of hub 2 (6 and 2 on
 * PGlite, whose one connection makes it slower) each upload 100 different files (small PNGs, some of two
 * chunks), three at a time, all together against one server process.
 * Afterwards every stored file is exactly what its customer sent, in its customer's hub.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { openDb } from '../../src/db/client.ts';
import { addCustomer } from '../../src/db/seed/customers.ts';
import {
  accessUrlOf, createPgDatabase, errorOf, fetchBytes, isDone, noisePngOfSize, pgliteDataDir, postChunk, removeDir, sha256,
  startChild, tinyPng, upload, usePostgres, type ChunkResult, type Kind, type Upload,
} from '../helpers/drill.ts';

/** Logins of hub 1 and hub 2: the full crowd on PostgreSQL (production), a smaller one on PGlite (one connection). */
const CROWD: Record<Kind, [number, number]> = { postgres: [20, 3], pglite: [6, 2] };
const FILES_EACH = 100;
const TWO_CHUNK_FILES_EACH = 2;
const PARALLEL = 3;

async function run(ctx: TestContext, kind: Kind) {
  const dataDir = await pgliteDataDir();
  ctx.onTestFinished(() => removeDir(dataDir));
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    ctx.onTestFinished(await usePostgres());
    const db = await createPgDatabase();
    ctx.onTestFinished(db.drop);
    databaseUrl = db.url;
  }

  // The logins, made with the add-customer logic before the server starts (PGlite allows one process).
  const [hub1, hub2] = CROWD[kind];
  const logins: Array<{ login: string; hub: 1 | 2 }> = [
    ...Array.from({ length: hub1 }, (_, i) => ({ login: `c1-${i}`, hub: 1 as const })),
    ...Array.from({ length: hub2 }, (_, i) => ({ login: `c2-${i}`, hub: 2 as const })),
  ];
  const handle = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    for (const l of logins) await addCustomer(handle.db, { hub: l.hub, login: l.login, password: `pw-${l.login}`, customer: `并发客户${l.login}` });
  } finally {
    await handle.close();
  }

  // Every customer of the crowd comes from 127.0.0.1: as behind one proxy, the bound of connections per
  // address (MAX_CONNECTIONS_PER_ADDRESS, drills/slow-clients.test.ts) is off.
  const c = await startChild({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), env: { MAX_CONNECTIONS_PER_ADDRESS: '0' } });
  ctx.onTestFinished(() => c.server.stop());
  ctx.onTestFailed(() => console.error(c.server.output()));

  const tokens = await Promise.all(logins.map((l) => c.login(l.login, `pw-${l.login}`)));
  const plans: Upload[][] = [];
  for (const [n, l] of logins.entries()) {
    const folderId = `f-${l.login}`;
    const files: Upload[] = [];
    for (let i = 0; i < FILES_EACH; i++) {
      const bytes = i < TWO_CHUNK_FILES_EACH ? await noisePngOfSize(2_200_000) : tinyPng(24 + (i % 16), 24 + ((i + n) % 16));
      files.push(upload(`作品${i % 5}/${String(i).padStart(3, '0')}.png`, bytes, folderId));
    }
    plans.push(files);
  }
  const totalBytes = plans.flat().reduce((s, u) => s + u.bytes.length, 0);

  const started = Date.now();
  const results = new Map<Upload, ChunkResult>();
  await Promise.all(plans.map(async (files, n) => {
    let next = 0;
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      while (next < files.length) {
        const u = files[next++]!;
        let last: ChunkResult | undefined;
        for (let k = 1; k <= u.chunks.length; k++) {
          last = await postChunk(c.url, tokens[n]!, u, k);
          if (last.status !== 200) break;
        }
        results.set(u, last!);
      }
    }));
  }));
  const uploadMs = Date.now() - started;

  const failed = [...results.entries()].filter(([, r]) => !isDone(r));
  expect(failed.map(([u, r]) => `${u.folderId}/${u.filePath}: ${r.status} ${errorOf(r)}`)).toEqual([]);
  expect(results.size).toBe(logins.length * FILES_EACH);

  // Every file, read back through its link, is what was sent, and lives in its customer's hub.
  const entries = [...results.entries()];
  for (let i = 0; i < entries.length; i += 20) {
    await Promise.all(entries.slice(i, i + 20).map(async ([u, r]) => {
      const url = accessUrlOf(r)!;
      const hub = logins.find((l) => u.folderId === `f-${l.login}`)!.hub;
      expect(url).toMatch(new RegExp(`^/api/files/raw/${hub}/upload/${u.folderId}/`));
      const served = await fetchBytes(c.url, url);
      expect(served.status).toBe(200);
      expect(sha256(served.bytes), `${u.folderId}/${u.filePath}`).toBe(sha256(u.bytes));
    }));
  }
  console.info(`[concurrency/${kind}] ${logins.length} customers × ${FILES_EACH} files (${results.size} files, ${totalBytes} bytes, ${PARALLEL} at a time each) uploaded in ${uploadMs} ms, all byte-identical`);
}

describe('many customers upload at once', () => {
  for (const kind of ['postgres', 'pglite'] as const) {
    const [hub1, hub2] = CROWD[kind];
    it(`stores ${(hub1 + hub2) * FILES_EACH} files of ${hub1 + hub2} customers byte-identical, on ${kind}`, (ctx) => run(ctx, kind), 240_000);
  }
});
