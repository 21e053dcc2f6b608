/**
 * The web app's files as a browser gets them (issue #19 item 2): the build's brotli or gzip copy for a
 * browser that accepts it, the file itself otherwise, always with Vary: Accept-Encoding; hashed assets
 * cached for a year, the page revalidated. The dist here is made like the build's: the same
 * precompress step (apps/web/precompress.ts) over a page and its hashed scripts.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../web/precompress.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is read as sent, not decoded (fetch would decode it, and ask for gzip itself). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

const CHROMIUM = 'gzip, deflate, br, zstd';
const SCRIPT = 'assets/index-Ab12Cd34.js';
const TINY = 'assets/money-Zx98Yw76.js';

describe('the web app\'s files', () => {
  let t: TestApp;
  let dist: string;
  let page: Buffer;
  let script: Buffer;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'portal-dist-'));
    await mkdir(path.join(dist, 'assets'));
    page = Buffer.from(`<!doctype html>\n<html lang="zh-CN">\n<head>\n<meta charset="UTF-8" />\n<title>印刷自助下单平台</title>\n`
      + `<script type="module" crossorigin src="/${SCRIPT}"></script>\n</head>\n<body><div id="root"></div></body>\n</html>\n`.repeat(3));
    script = Buffer.from(Array.from({ length: 3000 }, (_, i) => `export const label${i} = { id: ${i}, text: "作品${i}", ok: ${i % 2 === 0} };`).join('\n'));
    await writeFile(path.join(dist, 'index.html'), page);
    await writeFile(path.join(dist, SCRIPT), script);
    await writeFile(path.join(dist, TINY), 'export{};');
    const sum = await precompressDir(dist);
    // The page and the script have both copies; the tiny file none (neither would be smaller).
    expect(sum.files).toBe(3);
    t = await startApp('pglite', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it('sends a hashed script brotli-encoded to a browser that accepts br, cached for a year', async () => {
    const res = await get(`${t.url}/${SCRIPT}`, { 'accept-encoding': CHROMIUM });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.equals(await readFile(path.join(dist, `${SCRIPT}.br`)))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.body).equals(script)).toBe(true);
  });

  it('sends gzip to a browser that accepts only gzip', async () => {
    const res = await get(`${t.url}/${SCRIPT}`, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(res.body).equals(script)).toBe(true);
  });

  it('sends the file itself to a client that accepts no encoding, still saying that it varies', async () => {
    const asked: Array<Record<string, string>> = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }];
    for (const headers of asked) {
      const res = await get(`${t.url}/${SCRIPT}`, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.equals(script)).toBe(true);
    }
  });

  it('sends a file without smaller copies as it is', async () => {
    const res = await get(`${t.url}/${TINY}`, { 'accept-encoding': CHROMIUM });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('export{};');
  });

  it('sends the page compressed too, at / and at the app\'s routes, never cached without asking', async () => {
    for (const route of ['/', '/login', '/batch-upload']) {
      const br = await get(`${t.url}${route}`, { 'accept-encoding': CHROMIUM });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^text\/html/);
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.body).equals(page)).toBe(true);
      const plain = await get(`${t.url}${route}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(page)).toBe(true);
    }
  });

  it('never hands out a compressed copy by its own name as the page', async () => {
    // A missing asset is a 404, not the page (whose scripts a browser would then run as HTML).
    const res = await get(`${t.url}/assets/missing-00000000.js`, { 'accept-encoding': CHROMIUM });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('serves a build made while it runs: the new page\'s new scripts, compressed too (npm run build on a running shop)', async () => {
    const next = 'assets/index-Ef56Gh78.js';
    const nextScript = Buffer.from(`${script.toString()}\nexport const rebuilt = true;`);
    await writeFile(path.join(dist, next), nextScript);
    await writeFile(path.join(dist, 'index.html'), page.toString().replaceAll(SCRIPT, next));
    await precompressDir(dist);
    const plain = await get(`${t.url}/${next}`);
    expect(plain.status).toBe(200);
    expect(plain.body.equals(nextScript)).toBe(true);
    const br = await get(`${t.url}/${next}`, { 'accept-encoding': CHROMIUM });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.body).equals(nextScript)).toBe(true);
    const newPage = await get(`${t.url}/batch-upload`);
    expect(newPage.body.toString()).toContain(next);
  });
});
