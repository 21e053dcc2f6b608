/**
 * Helpers of the drills (test/drills): real server processes started the way `npm start` runs them,
 * real databases made for one drill and dropped after it, and a client that speaks the upload protocol
 * to any URL. Nothing here is mocked.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import { cp, mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import sharp from 'sharp';
import { inject, type TestContext } from 'vitest';
import { startServer, type RunningServer } from '../../../../e2e/support/server.ts';
import { PG_ADMIN_URL, withDatabase } from '../global-setup.ts';
import { remote as remoteCalls, type Remote } from './remote.ts';

export { PG_ADMIN_URL };
export type Kind = 'pglite' | 'postgres';
/** The chunk size of the web app (LIMITS.chunkSize): files bigger than this take several chunks. */
export const CHUNK = 2048000;
export const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A generous bound for one request: a request that takes longer counts as a hang. */
export const REQUEST_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------- databases

let dbCounter = 0;

/** A fresh PostgreSQL database cloned from the prepared template; named so global-setup can clean it after a crash. */
export async function createPgDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `portal_test_${process.pid}_d${++dbCounter}_${randomBytes(3).toString('hex')}`;
  await admin((c) => c.query(`create database ${name} template ${inject('pgTemplateDb')}`));
  return {
    name,
    url: withDatabase(PG_ADMIN_URL, name),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => {});
  }
}

/** Runs queries on a drill's own database (never another one). */
export async function queryDb<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end().catch(() => {});
  }
}

/** A DATA_DIR holding the prepared, seeded PGlite database (seeding from scratch takes seconds). */
export async function pgliteDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-drill-'));
  await cp(inject('pgliteTemplateDir'), dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------- server processes

export type { Remote };
/** The calls to a child server (remote.ts); a call never waits longer than REQUEST_TIMEOUT_MS. */
export const remote = (url: string): Remote => remoteCalls(url, { timeoutMs: REQUEST_TIMEOUT_MS });

export type Child = Remote & { server: RunningServer; env: Record<string, string>; dataDir: string };

/**
 * The real server as a child process (e2e/support/server.ts) on a DATA_DIR and, for PostgreSQL, a
 * DATABASE_URL. Restart it with the same arguments after kill9() to get "the same" server back.
 */
export async function startChild(o: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<Child> {
  const env: Record<string, string> = {
    JWT_SECRET: 'drill-secret-drill-secret-drill-secret-0123456789',
    LOG_LEVEL: 'error',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...o.env,
  };
  const server = await startServer({ dataDir: o.dataDir, env });
  return { ...remote(server.url), server, env, dataDir: o.dataDir };
}

/** Whether a process still exists (a crashed server is gone). */
export function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- files and the upload protocol

export type ChunkAnswer = { state: number; message: { status: number; filePath?: string; relativeUrl?: string; accessUrl?: string; info?: Record<string, number>; error?: string } | string; code?: string };
export type ChunkResult = { status: number; body: ChunkAnswer };

export function chunksOf(bytes: Buffer, size = CHUNK) {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out.length ? out : [Buffer.alloc(0)];
}

/** A file to upload: its bytes cut in chunks, with the identity the web app gives it. */
export type Upload = { filePath: string; bytes: Buffer; folderId: string; identifier: string; chunks: Buffer[] };

export function upload(filePath: string, bytes: Buffer, folderId: string = randomUUID()): Upload {
  return { filePath, bytes, folderId, identifier: `${bytes.length}-${filePath}`, chunks: chunksOf(bytes) };
}

/**
 * One request on a new connection (no keep-alive): for checks that must not be hung by a connection an
 * earlier answer left unusable.
 */
export async function freshRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: FormData | string }): Promise<{ status: number; bytes: Buffer }> {
  let body: Buffer | undefined;
  const headers: Record<string, string> = { ...init.headers };
  if (init.body instanceof FormData) {
    const r = new Request('http://x/', { method: 'POST', body: init.body });
    body = Buffer.from(await r.arrayBuffer());
    headers['content-type'] = r.headers.get('content-type')!;
  } else if (typeof init.body === 'string') {
    body = Buffer.from(init.body);
  }
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A request whose path is sent exactly as given (fetch and URL would resolve `..` and `%2e%2e` before
 * sending), on a new connection, with a bound on the wait. Answers status, headers and body; a request
 * that gets no answer in time answers status 0.
 */
export async function rawRequest(base: string, rawPath: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; ms: number }> {
  const u = new URL(base);
  const body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;
  const headers: Record<string, string> = { ...init.headers };
  if (body) headers['content-length'] = String(body.length);
  const started = Date.now();
  const timeout = init.timeoutMs ?? REQUEST_TIMEOUT_MS;
  return new Promise((resolve) => {
    const req = http.request({ host: u.hostname, port: u.port, path: rawPath, method: init.method ?? 'GET', headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8'), ms: Date.now() - started }));
      res.on('error', (err) => resolve({ status: 0, headers: {}, text: `error: ${err.message}`, ms: Date.now() - started }));
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeout} ms`)), timeout);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) => resolve({ status: 0, headers: {}, text: `error: ${err.message}`, ms: Date.now() - started }));
    req.end(body);
  });
}

/** A multipart body (bytes and content type) from a FormData, for rawRequest. */
export async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const r = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get('content-type')! };
}

/** Sends chunk `index` (1-based) of an upload, as the web app does: the fields, then the part `file`. */
export async function postChunk(url: string, token: string, u: Upload, index: number, opts: { fresh?: boolean } = {}): Promise<ChunkResult> {
  const form = new FormData();
  form.set('identifier', u.identifier);
  form.set('chunkIndex', String(index));
  form.set('chunkTotal', String(u.chunks.length));
  form.set('size', String(u.bytes.length));
  form.set('filePath', u.filePath);
  form.set('ext', u.filePath.slice(u.filePath.lastIndexOf('.') + 1));
  form.set('fileNum', '1');
  form.set('fileIndex', '0');
  form.set('index', '0');
  form.set('acceptFolder', u.filePath.includes('/') ? 'true' : 'false');
  form.set('fetchMeta', 'true');
  form.set('folderId', u.folderId);
  form.set('file', new Blob([new Uint8Array(u.chunks[index - 1]!)]), 'blob');
  const headers = { authorization: `Bearer ${token}` };
  let status: number;
  let text: string;
  if (opts.fresh) {
    const r = await freshRequest(`${url}/api/files/updateFile`, { method: 'POST', headers, body: form });
    status = r.status;
    text = r.bytes.toString('utf8');
  } else {
    const res = await fetch(`${url}/api/files/updateFile`, { method: 'POST', headers, body: form, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    status = res.status;
    text = await res.text();
  }
  let body: ChunkAnswer;
  try {
    body = JSON.parse(text) as ChunkAnswer;
  } catch {
    body = { state: -1, message: text };
  }
  return { status, body };
}

export const isDone = (r: ChunkResult) => typeof r.body.message === 'object' && r.body.message.status === 300;
export const accessUrlOf = (r: ChunkResult) => (typeof r.body.message === 'object' ? r.body.message.accessUrl : undefined);
export const errorOf = (r: ChunkResult) => (typeof r.body.message === 'object' ? r.body.message.error : r.body.message);

/** Sends every chunk in order and answers the last answer (300 with the stored file when all went well). */
export async function uploadAll(url: string, token: string, u: Upload): Promise<ChunkResult> {
  let last: ChunkResult | undefined;
  for (let i = 1; i <= u.chunks.length; i++) {
    last = await postChunk(url, token, u, i);
    if (last.status !== 200) return last;
  }
  return last!;
}

/** The bytes a customer gets back through the file's accessUrl. */
export async function fetchBytes(url: string, accessUrl: string, opts: { fresh?: boolean } = {}): Promise<{ status: number; bytes: Buffer }> {
  if (opts.fresh) return freshRequest(url + accessUrl, {});
  const res = await fetch(url + accessUrl, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A deterministic generator (mulberry32), so a failing fuzz case can be replayed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))) };
}

/** A PNG of random pixels: every call gives different bytes; noise does not compress, so size ≈ w×h×3. */
export async function noisePng(width: number, height: number, dpi = 300): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).withMetadata({ density: dpi }).toBuffer();
}

/**
 * A small PNG of random pixels, built byte by byte (no image library: thousands are made per drill):
 * RGB, 8 bits, 300 dpi in pHYs, every chunk with its CRC, so the server reads it as a sound image.
 */
export function tinyPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const phys = Buffer.alloc(9);
  phys.writeUInt32BE(11811, 0);
  phys.writeUInt32BE(11811, 4);
  phys[8] = 1;
  const rows = randomBytes((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) rows[y * (width * 3 + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('pHYs', phys), chunk('IDAT', zlib.deflateSync(rows, { level: 1 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of random pixels a little over `bytes` long. */
export async function noisePngOfSize(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  return noisePng(side, side);
}

export async function smallJpeg(seed: number, width = 120, height = 80): Promise<Buffer> {
  const r = prng(seed);
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + r.int(64)) & 0xff;
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).withMetadata({ density: 300 }).toBuffer();
}

/** Every regular file below a directory (absolute paths); missing directories give nothing. */
export function walkFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p));
    else if (e.isFile() || e.isSymbolicLink()) out.push(p);
  }
  return out;
}

export const fileSize = (p: string) => statSync(p).size;

// ---------------------------------------------------------------- the PostgreSQL gate

/**
 * The PostgreSQL restart drill stops the one PostgreSQL every drill shares. Drills that use PostgreSQL
 * hold a "user" mark while they run; the restart drill takes the "restart" mark and waits until no live
 * user is left, and users wait while a restart is marked. Marks of dead processes do not count.
 */
const GATE = path.join(os.tmpdir(), 'portal-drill-pg-gate');

/** Names in a gate folder whose process (the number before the first '-') is alive; others are removed. */
async function live(dir: string) {
  await mkdir(dir, { recursive: true });
  const out: string[] = [];
  for (const n of await readdir(dir)) {
    const pid = Number(n.split('-')[0]);
    if (pid > 0 && alive(pid)) out.push(n);
    else await unlink(path.join(dir, n)).catch(() => {});
  }
  return out;
}

/** Marks this drill as using PostgreSQL (waiting while a restart drill runs); call the answer to unmark. */
export async function usePostgres(): Promise<() => Promise<void>> {
  const users = path.join(GATE, 'users');
  const restarts = path.join(GATE, 'restarts');
  const me = path.join(users, `${process.pid}-${randomUUID()}`);
  for (;;) {
    while ((await live(restarts)).length > 0) await sleep(250);
    await mkdir(users, { recursive: true });
    await writeFile(me, '');
    if ((await live(restarts)).length === 0) break;
    await unlink(me).catch(() => {});
  }
  return () => unlink(me).catch(() => {});
}

/** Marks a PostgreSQL restart and waits until no other drill uses PostgreSQL; call the answer to unmark. */
export async function restartPostgresExclusively(maxWaitMs = 240_000): Promise<() => Promise<void>> {
  const restarts = path.join(GATE, 'restarts');
  await mkdir(restarts, { recursive: true });
  const me = path.join(restarts, `${process.pid}-${randomUUID()}`);
  await writeFile(me, '');
  // Marks of this process are from drills that ran before in the same worker, not at the same time.
  const until = Date.now() + maxWaitMs;
  while ((await live(path.join(GATE, 'users'))).some((n) => !n.startsWith(`${process.pid}-`)) && Date.now() < until) await sleep(250);
  return () => unlink(me).catch(() => {});
}

export const removeDir = (dir: string) => rm(dir, { recursive: true, force: true });

/** A DATA_DIR (and for PostgreSQL a database) of one drill, removed when the test ends. */
export async function drillPlace(ctx: TestContext, kind: Kind): Promise<{ dataDir: string; databaseUrl: string | undefined }> {
  const dataDir = await pgliteDataDir();
  ctx.onTestFinished(() => removeDir(dataDir));
  if (kind === 'pglite') return { dataDir, databaseUrl: undefined };
  ctx.onTestFinished(await usePostgres());
  const db = await createPgDatabase();
  ctx.onTestFinished(db.drop);
  return { dataDir, databaseUrl: db.url };
}
