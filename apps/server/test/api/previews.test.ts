/**
 * Previews nobody can use to stall the server (issue #19 item 5): a page of a PDF is rendered alone
 * (one customer's flood not holding another's preview: previews-fairness.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { storedFiles } from '../../src/db/schema/index.ts';
import { makePdfPagePreview } from '../../src/media/preview.ts';
import { DB_KINDS, startApp, type TestApp } from '../helpers/app.ts';
import { pollTask, sha256, uploadFile } from '../helpers/upload.ts';
import { makeZip } from '../helpers/zips.ts';
import { makePdf, previewLinks, uploadOk } from '../helpers/previews.ts';

describe.each(DB_KINDS)('previews on %s', (kind) => {
  let t: TestApp;
  let demo: string;

  const upload = (token: string, bytes: Buffer, name: string) => uploadOk(t, token, bytes, name);
  const links = (token: string, filePath: string) => previewLinks(t, token, filePath);
  /** Size of a page's preview, which shows the page's pale blue fill (a placeholder is grey on white). */
  const renderedPageSize = async (res: Response) => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await res.arrayBuffer());
    const { channels } = await sharp(bytes).stats();
    expect(channels[2]!.mean - channels[0]!.mean).toBeGreaterThan(5);
    const meta = await sharp(bytes).metadata();
    return [meta.width, meta.height];
  };

  /** The files below a hub's .previews/ folder of a stored file (hub 1), by name. */
  const previewFolder = async (filePath: string) => readdir(path.join(t.config.dataDir, 'files', '1', '.previews', filePath)).catch(() => [] as string[]);
  const metaOf = async (filePath: string) =>
    (await t.db.db.select({ meta: storedFiles.meta }).from(storedFiles).where(and(eq(storedFiles.hubId, 1), eq(storedFiles.path, filePath))))[0]?.meta;
  const jpegOf = async (url: string) => {
    const res = await fetch(t.url + url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  beforeAll(async () => {
    t = await startApp(kind);
    demo = await t.login('demo', 'demo');
  });
  afterAll(async () => t?.close());

  it('answers page 1 of a 10,000-page PDF (and its last page) by rendering the page asked for', async () => {
    const filePath = await upload(demo, await makePdf(10_000), '万页.pdf');
    const list = await links(demo, filePath);
    expect(list).toHaveLength(10_000);
    expect(list[0]!.name).toBe('万页.pdf 第1页');
    // A4 portrait: long side 1024.
    expect(await renderedPageSize(await fetch(t.url + list[0]!.url))).toEqual([724, 1024]);
    expect(await renderedPageSize(await fetch(t.url + list[9_999]!.url))).toEqual([724, 1024]);
    // A page the PDF does not have.
    const beyond = await fetch(t.url + list[0]!.url.replace('page=1&', 'page=10001&'));
    expect(beyond.status).toBe(404);
    expect(await beyond.json()).toMatchObject({ message: '预览图不存在' });
    // Uploading 10,000 pages reads every page's size and writes a preview copy: well over a minute on a loaded machine.
  }, 180_000);

  it('previews a PDF with a flat page tree from a balanced copy: the same pages, the file untouched, the copy gone with it', async () => {
    const bytes = await makePdf(300);
    const filePath = await upload(demo, bytes, '平铺.pdf');
    const stored = path.join(t.config.dataDir, 'files', '1', filePath);
    expect(sha256(await readFile(stored))).toBe(sha256(bytes));
    const [copyName, ...others] = await previewFolder(filePath);
    expect(others).toEqual([]);
    expect(copyName).toMatch(/^pages-\d+-\d+\.pdf$/);
    const copy = await readFile(path.join(t.config.dataDir, 'files', '1', '.previews', filePath, copyName!));
    expect(Buffer.compare(copy.subarray(0, bytes.length), bytes)).toBe(0);
    expect((await metaOf(filePath))?.previewCopyBytes).toBe(copy.length);

    // Each page as pdf.js renders it from the customer's file.
    const list = await links(demo, filePath);
    for (const n of [1, 150, 300]) {
      const expected = path.join(t.config.dataDir, `expected-${n}.jpg`);
      expect(await makePdfPagePreview(stored, n, expected, { pageTimeoutMs: 120_000 })).toEqual({ placeholder: false });
      const got = await jpegOf(list[n - 1]!.url);
      // Rendered (the page's pale blue), not a placeholder, and the very image of the file's page.
      expect(await renderedPageSize(new Response(got, { headers: { 'content-type': 'image/jpeg' } }))).toEqual([724, 1024]);
      expect(sha256(got), `page ${n}`).toBe(sha256(await readFile(expected)));
    }

    const res = await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath } });
    expect(res.status).toBe(200);
    expect(await previewFolder(filePath)).toEqual([]);
  }, 180_000);

  it('renders from the copy of the stored version only: a file sent again under its path is previewed as it is now', async () => {
    const folderId = randomUUID();
    const first = await uploadFile(t, demo, await makePdf(300), '再传.pdf', { folderId });
    expect(first.done).toBeDefined();
    const filePath = `upload/${folderId}/再传.pdf`;
    const [copyName] = await previewFolder(filePath);
    expect(copyName).toBeDefined();
    // Pages are rendered from the copy: one made to show landscape pages shows them.
    await writeFile(path.join(t.config.dataDir, 'files', '1', '.previews', filePath, copyName!), await makePdf(300, [842, 595]));
    expect(await renderedPageSize(await fetch(t.url + (await links(demo, filePath))[0]!.url))).toEqual([1024, 724]);
    // The same path again, a landscape PDF of 300 pages: a copy of its own, its predecessor's previews and copy gone.
    const again = await uploadFile(t, demo, await makePdf(300, [842, 595]), '再传.pdf', { folderId });
    expect(again.done).toBeDefined();
    expect(await previewFolder(filePath)).toEqual([expect.stringMatching(/^pages-/)]);
    expect(await renderedPageSize(await fetch(t.url + (await links(demo, filePath))[1]!.url))).toEqual([1024, 724]);
    // A PDF of few pages under that path: no copy, and the landscape one's is not used.
    const small = await uploadFile(t, demo, await makePdf(3), '再传.pdf', { folderId });
    expect(small.done).toBeDefined();
    expect(await renderedPageSize(await fetch(t.url + (await links(demo, filePath))[0]!.url))).toEqual([724, 1024]);
    expect((await metaOf(filePath))?.previewCopyBytes).toBeUndefined();
  });

  it('makes the copy for a PDF that came in a zip', async () => {
    const zip = await makeZip([['画册/长.pdf', await makePdf(300)]]);
    const zipPath = await upload(demo, zip, '包.zip');
    const r = await t.call('GET', `/api/sales_order/parseOrderInfo4BatchUp?filePath=${encodeURIComponent(zipPath)}&customerHubId=1`, { token: demo });
    const body = (await r.json()) as { state: number; message: { taskId?: string } };
    expect(body.state).toBe(100);
    const done = await pollTask(t, demo, body.message.taskId!);
    expect(done.message.status).toBe('finished');
    const pdfPath = done.message.jsonContent!.works[0]!.filePath as string;
    const rows = await t.db.db.select({ path: storedFiles.path, meta: storedFiles.meta }).from(storedFiles).where(eq(storedFiles.hubId, 1));
    const row = rows.find((x) => x.path.startsWith(pdfPath) && x.path.endsWith('长.pdf'))!;
    const names = await previewFolder(row.path);
    expect(names).toHaveLength(1);
    expect(row.meta?.previewCopyBytes).toBeGreaterThan(0);
    const [page1] = await links(demo, row.path);
    expect(await renderedPageSize(await fetch(t.url + page1!.url))).toEqual([724, 1024]);
  });

  it('deletes a PDF while its pages are being previewed: 200, the pending previews 404, nothing of it left under .previews', async () => {
    // Seen on a clean clone: 删除 right after the 预览 dialog of a PDF closed answered 500 (the pages still
    // being rendered into the file's .previews folder while it was removed).
    for (let round = 1; round <= 3; round++) {
      const filePath = await upload(demo, await makePdf(40), `删中预览${round}.pdf`);
      const list = await links(demo, filePath);
      const pages = list.map((l) => fetch(t.url + l.url).then((r) => r.status));
      // The first pages are written: the folder is being filled when the delete comes.
      await expect.poll(async () => (await previewFolder(filePath)).some((n) => n.endsWith('.jpg')), { timeout: 60_000, interval: 20 }).toBe(true);
      const del = await t.call('POST', '/api/files/deleteFile', { token: demo, body: { filePath } });
      expect(del.status, `round ${round}: ${await del.text()}`).toBe(200);
      const statuses = await Promise.all(pages);
      expect(statuses.filter((s) => s !== 200 && s !== 404), `round ${round}`).toEqual([]);
      expect(statuses.at(-1), `round ${round}: the last page was asked after the first were made`).toBe(404);
      expect(await previewFolder(filePath), `round ${round}`).toEqual([]);
    }
  }, 180_000);
});
