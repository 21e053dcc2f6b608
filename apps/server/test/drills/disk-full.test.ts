/**
 * Drill: the disk that holds DATA_DIR fills up during uploads (a 40 MB tmpfs; the database is PostgreSQL,
 * elsewhere). The customer gets a clear refusal, nothing half written stays behind, and once files are
 * deleted uploads work again, including the one the full disk refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHUNK, accessUrlOf, createPgDatabase, errorOf, fetchBytes, freshRequest, isDone, noisePngOfSize, postChunk, queryDb, removeDir, sha256, startChild, upload,
  usePostgres, walkFiles, type Child, type ChunkResult, type Upload,
} from '../helpers/drill.ts';

const DISK_FULL = '服务器存储空间不足，请联系印刷厂';

/** Where two byte strings first differ, for a failure message. */
function difference(got: Buffer, want: Buffer) {
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  let zeros = 0;
  while (i + zeros < got.length && got[i + zeros] === 0) zeros++;
  return `${got.length} bytes served, ${want.length} sent; first difference at byte ${i} (chunk ${Math.floor(i / CHUNK) + 1}), followed by ${zeros} zero bytes`;
}

describe('the disk of DATA_DIR fills up', () => {
  let mountDir = '';
  let mounted = false;
  let mountError = '';
  let c: Child | undefined;
  let db: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  let unmark: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    mountDir = await mkdtemp(path.join(os.tmpdir(), 'portal-drill-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', mountDir], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      mountError = String((err as { stderr?: Buffer }).stderr ?? err).trim();
      return;
    }
    unmark = await usePostgres();
    db = await createPgDatabase();
    c = await startChild({ dataDir: mountDir, databaseUrl: db.url });
  }, 180_000);

  afterAll(async () => {
    await c?.server.stop();
    await db?.drop().catch(() => {});
    await unmark?.();
    if (mounted) execFileSync('umount', ['-l', mountDir], { stdio: 'pipe' });
    await removeDir(mountDir);
  }, 120_000);

  it('refuses with 507 and a clear message, leaves no half file, and uploads again once space is freed', async (ctx) => {
    if (!mounted) return ctx.skip(`mount -t tmpfs is not permitted here (${mountError}): the disk-full drill needs root`);
    const token = await c!.login('demo', 'demo');
    const stored: Array<{ u: Upload; done: ChunkResult }> = [];
    let refusal: { u: Upload; chunk: number; r: ChunkResult } | undefined;
    const refusals: ChunkResult[] = [];
    const send = (u: Upload, k: number) => postChunk(c!.url, token, u, k).catch((err: Error): ChunkResult => ({ status: 0, body: { state: 0, message: `no answer: ${err.name}: ${err.message}` } }));

    // Files of one, two and three chunks until the disk refuses; then a few more to see every refusal is clean.
    for (let i = 0; i < 60 && refusals.length < 4; i++) {
      const u = upload(`满盘/${i}.png`, await noisePngOfSize([900_000, 3_000_000, 5_000_000][i % 3]!));
      for (let k = 1; k <= u.chunks.length; k++) {
        const r = await send(u, k);
        if (r.status !== 200) {
          refusals.push(r);
          refusal ??= { u, chunk: k, r };
          break;
        }
        if (isDone(r)) stored.push({ u, done: r });
      }
    }
    expect(refusal, 'the disk never filled').toBeDefined();
    // Soft: the checks below still run when a refusal is wrong, so one run shows every problem.
    for (const r of refusals) {
      expect.soft([413, 507, ...Array.from({ length: 100 }, (_, i) => 400 + i)], `a refusal of the full disk: ${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
      expect.soft(errorOf(r), JSON.stringify(r.body)).toBe(DISK_FULL);
    }

    // From here on every request takes a new connection: a connection a refusal left stuck must not hang
    // the checks of what the refusal left behind (the stuck connection is reported above).
    const fresh = { fresh: true };

    // Nothing half written: no temporary files anywhere, and every stored file is exactly what was sent.
    const filesRoot = path.join(mountDir, 'files');
    const all = walkFiles(filesRoot);
    expect(all.filter((f) => /\.tmp-|\.assembling$/.test(f)), 'temporary files left behind').toEqual([]);
    const sentByPath = new Map<string, Upload>();
    for (const s of [...stored.map((x) => x.u), refusal!.u]) sentByPath.set(`upload/${s.folderId}/${s.filePath}`, s);
    for (const abs of all.filter((f) => !f.includes(`${path.sep}.chunks${path.sep}`))) {
      const rel = path.relative(path.join(filesRoot, '1'), abs).split(path.sep).join('/');
      const sent = sentByPath.get(rel);
      expect(sent, `an unexpected file ${rel}`).toBeDefined();
      expect(sha256(await readFile(abs)), `${rel} is not what was sent`).toBe(sha256(sent!.bytes));
    }
    for (const s of stored) {
      const served = await fetchBytes(c!.url, accessUrlOf(s.done)!, fresh);
      expect(sha256(served.bytes), s.u.filePath).toBe(sha256(s.u.bytes));
    }

    // Free space the way a customer can: delete stored files.
    for (const s of stored.slice(0, Math.ceil(stored.length / 2))) {
      const res = await freshRequest(`${c!.url}/api/files/deleteFile`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ filePath: `upload/${s.u.folderId}/${s.u.filePath}` }) });
      expect(res.status, res.bytes.toString()).toBe(200);
    }
    // The refused file completes when its chunks are sent again, and a new file goes through.
    let again: ChunkResult | undefined;
    for (let k = refusal!.chunk; k <= refusal!.u.chunks.length; k++) again = await postChunk(c!.url, token, refusal!.u, k, fresh);
    const row = await queryDb(db!.url, 'select status, received_count, chunk_total, updated_at from uploads where folder_id = $1', [refusal!.u.folderId]);
    expect(again && isDone(again), `the file refused at chunk ${refusal!.chunk}/${refusal!.u.chunks.length}, sent again: ${JSON.stringify(again?.body)}; its upload: ${JSON.stringify(row)}`).toBe(true);
    const served = (await fetchBytes(c!.url, accessUrlOf(again!)!, fresh)).bytes;
    expect(sha256(served), `the refused file (refused at chunk ${refusal!.chunk}/${refusal!.u.chunks.length}: ${JSON.stringify(refusal!.r.body)}), completed after space was freed, is not what was sent: ${difference(served, refusal!.u.bytes)}`).toBe(sha256(refusal!.u.bytes));
    const later = upload('满盘/之后.png', await noisePngOfSize(3_000_000));
    let last: ChunkResult | undefined;
    for (let k = 1; k <= later.chunks.length; k++) last = await postChunk(c!.url, token, later, k, fresh);
    expect(last && isDone(last), JSON.stringify(last?.body)).toBe(true);
    expect(sha256((await fetchBytes(c!.url, accessUrlOf(last!)!, fresh)).bytes)).toBe(sha256(later.bytes));
    const bytes = stored.reduce((n, s) => n + s.u.bytes.length, 0);
    console.info(`[disk-full] ${stored.length} files (${bytes} bytes) stored before the 40 MB disk was full; refusals: ${refusals.map((r) => r.status).join(', ')}; after deleting ${Math.ceil(stored.length / 2)} files the refused file and a new one went through`);
  }, 180_000);
});
