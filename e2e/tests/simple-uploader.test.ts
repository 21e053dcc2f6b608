/**
 * A stock client of the chunk protocol (issue #19 item 4): the real simple-uploader.js from npm, with
 * its defaults (1 MiB chunks, testChunks on, its own identifier: the size and the path without its
 * non-ASCII), in Chromium on a page of the built app, uploads files, a folder and a zip to the real
 * server (the token goes in its `headers` option, the batch's folderId in `query`). Every stored file
 * must hold the bytes picked. Its folder holds two files of one size whose
 * identifiers are the same ("<size>-jpg"). Sent again into the same batch, every chunk is found by the
 * testChunks GET and no byte is sent twice.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser.ts';
import { apiLogin, startServer, type RunningServer } from '../support/server.ts';
import { CORPUS_PDF } from '../support/upload-fixtures.ts';

const UPLOADER_JS = createRequire(import.meta.url).resolve('simple-uploader.js/dist/uploader.js');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What the page keeps of the uploader's events; the test waits on it. */
type Outcome = { path: string; status: number | null; error: string | null };

// page.evaluate callbacks run in the browser; e2e compiles without the DOM library.
declare const document: { createElement(tag: string): { type: string; id: string }; body: { append(el: unknown): void } };
declare const window: {
  Uploader: new (opts: Record<string, unknown>) => {
    assignBrowse(el: unknown, directory: boolean): void;
    upload(): void;
    on(event: string, fn: (...args: never[]) => void): void;
  };
  outcomes: Outcome[];
};

/** Noise does not compress: a JPEG of a few megabytes, several 1 MiB chunks. */
const noiseJpeg = (w: number, h: number) =>
  sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 100 }).withMetadata({ density: 300 }).toBuffer();

/** The same JPEG with a comment segment after its SOI: two different files of one size. */
function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, body.length + 2]), body, jpeg.subarray(2)]);
}

function writeZip(entries: Array<{ name: string; data: Buffer }>, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const e of entries) zip.addBuffer(e.data, e.name);
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => writeFile(path, Buffer.concat(chunks)).then(resolve, reject));
  });
}

describe('simple-uploader.js with its defaults', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let dir: string;
  /** Relative path as picked → the bytes on disk. */
  const picked = new Map<string, Buffer>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-su-'));
    // ≈ 2.5 and 4.5 MB: 2 and 4 chunks (the library's last chunk takes up to twice its chunk size).
    const [jpeg, big] = await Promise.all([noiseJpeg(1400, 1000), noiseJpeg(2000, 1600)]);
    const folder = join(dir, '作品甲');
    await mkdir(folder);
    await writeFile(join(folder, '封面.jpg'), withComment(jpeg, '封面'));
    await writeFile(join(folder, '内页.jpg'), withComment(jpeg, '内页'));
    await writeFile(join(dir, '海报.jpg'), big);
    await copyFile(CORPUS_PDF, join(dir, '宣传册.pdf'));
    await writeZip([{ name: '作品乙/p1.jpg', data: jpeg }, { name: '作品乙/p2.jpg', data: withComment(jpeg, 'p2') }], join(dir, '两本画册.zip'));
    for (const rel of ['作品甲/封面.jpg', '作品甲/内页.jpg', '海报.jpg', '宣传册.pdf', '两本画册.zip']) picked.set(rel, await readFile(join(dir, ...rel.split('/'))));

    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    ({ context, page } = await newPage(browser));
    // The library's dist file from node_modules, served at an address of the page's own origin: the
    // app's Content-Security-Policy takes scripts from 'self' only, and the test leaves it on.
    await page.route(`${server.url}/test-vendor/uploader.js`, (route) => route.fulfill({ path: UPLOADER_JS, contentType: 'text/javascript' }));
    token = await apiLogin(server.url, 'demo');
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A page of the built app with simple-uploader.js and two inputs (files, a folder) assigned to it, defaults on. */
  async function uploaderPage(folderId: string): Promise<void> {
    await page.goto(`${server.url}/login`);
    await page.addScriptTag({ url: '/test-vendor/uploader.js' });
    await page.evaluate(({ folderId, token }) => {
      window.outcomes = [];
      const uploader = new window.Uploader({ target: '/api/files/updateFile', query: { folderId }, headers: { Authorization: `Bearer ${token}` } });
      for (const [id, directory] of [['su-files', false], ['su-folder', true]] as const) {
        const input = document.createElement('input');
        input.type = 'file';
        input.id = id;
        document.body.append(input);
        uploader.assignBrowse(input, directory);
      }
      const answer = (message: string) => {
        try {
          return JSON.parse(message) as { message?: { status?: number; error?: string } };
        } catch {
          return {};
        }
      };
      // The library has no autoStart: its README starts the upload once files are submitted.
      uploader.on('filesSubmitted', () => uploader.upload());
      uploader.on('fileSuccess', ((_root: unknown, file: { relativePath: string }, message: string) => {
        window.outcomes.push({ path: file.relativePath, status: answer(message).message?.status ?? null, error: null });
      }) as (...args: never[]) => void);
      uploader.on('fileError', ((_root: unknown, file: { relativePath: string }, message: string) => {
        window.outcomes.push({ path: file.relativePath, status: null, error: answer(message).message?.error ?? message });
      }) as (...args: never[]) => void);
    }, { folderId, token });
  }

  async function pickAll(): Promise<Outcome[]> {
    await page.locator('#su-folder').setInputFiles(join(dir, '作品甲'));
    await page.locator('#su-files').setInputFiles(['海报.jpg', '宣传册.pdf', '两本画册.zip'].map((f) => join(dir, f)));
    await page.waitForFunction((n) => window.outcomes.length >= n, picked.size, { timeout: 90_000 }).catch(async (err: unknown) => {
      throw new Error(`${String(err)}; the uploader's outcomes so far: ${JSON.stringify(await page.evaluate(() => window.outcomes))}`);
    });
    const outcomes = await page.evaluate(() => window.outcomes);
    return outcomes.sort((a, b) => a.path.localeCompare(b.path));
  }

  it('stores files, a folder and a zip byte for byte, same-size files of one identifier included; sent again, nothing is re-sent', async () => {
    const folderId = randomUUID();
    await uploaderPage(folderId);
    const requests: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/files/updateFile') requests.push(req.method());
    });
    // The server's answers to the chunks: exactly one per file completes it (300, with its path).
    const completed: string[] = [];
    const answered: Array<Promise<void>> = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname !== '/api/files/updateFile' || res.request().method() !== 'POST') return;
      answered.push(res.json().then((body: { message?: { status?: number; filePath?: string } }) => {
        if (body.message?.status === 300) completed.push(body.message.filePath ?? '');
      }, () => undefined));
    });

    const outcomes = await pickAll();
    const paths = [...picked.keys()].sort((a, b) => a.localeCompare(b));
    // Each file ends in fileSuccess. Its message is the chunk answer the browser delivered last, which with chunks
    // in parallel may be another chunk's 200 rather than the completing 300 (a clean-clone CI run got 200 for
    // 海报.jpg's four chunks): the completions are counted from the answers themselves.
    expect(outcomes.map((o) => [o.path, o.error, o.status === 200 || o.status === 300])).toEqual(paths.map((path) => [path, null, true]));
    await Promise.all(answered);
    expect(completed.sort((a, b) => a.localeCompare(b))).toEqual(paths.map((path) => `upload/${folderId}/${path}`));
    // testChunks: a GET before each chunk's POST, answered 204 (not there yet).
    const posts = requests.filter((m) => m === 'POST').length;
    expect(posts).toBeGreaterThanOrEqual(picked.size + 1 + 1 + 3);
    expect(requests.filter((m) => m === 'GET').length).toBe(posts);

    for (const [rel, bytes] of picked) {
      const res = await fetch(`${server.url}/api/files/raw/1/upload/${folderId}/${rel.split('/').map(encodeURIComponent).join('/')}`, { headers: { authorization: `Bearer ${token}` } });
      expect({ rel, status: res.status }).toEqual({ rel, status: 200 });
      expect({ rel, sha256: sha256(Buffer.from(await res.arrayBuffer())) }).toEqual({ rel, sha256: sha256(bytes) });
    }

    // The same files into the same batch: every chunk's test answers 200, so no chunk is posted.
    requests.length = 0;
    await uploaderPage(folderId);
    const again = await pickAll();
    expect(again.map((o) => [o.path, o.error])).toEqual([...picked.keys()].sort((a, b) => a.localeCompare(b)).map((p) => [p, null]));
    expect(requests.filter((m) => m === 'POST')).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(posts);
  });
});
