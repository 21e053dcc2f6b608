/**
 * Issue #21 item 2, bytes the shop already has are not sent: a folder of 200 distinct 6寸 photos
 * (1795×1205 px noise JPEGs, ≈ 2 MB each) picked in headless Chromium with the upload throttled to
 * 100 Mbit/s through the DevTools protocol, until its work is a row of the order table; then the page is
 * reloaded and the same folder picked again. Figures: the re-pick's time and bytes sent (the Content-Length
 * of every chunk request the browser put on the wire, Network.requestWillBeSentExtraInfo); baseline: the
 * first pick's, in the same run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { BATCH_UPLOAD_HEADING, buildWebIfStale, openBatchUpload, startBrowser } from '../lib/browser.ts';
import { startBenchServer } from '../lib/server.ts';
import type { Benchmark } from '../lib/types.ts';

const MBIT = 1_000_000 / 8;
const UPLOAD_BYTES_PER_S = 100 * MBIT;
const ROW_TIMEOUT_MS = 10 * 60_000;
const ALBUM = '二百张照片';

/**
 * `count` distinct 1795×1205 JPEGs at 300 dpi: one noise picture (≈ 2 MB: noise does not compress, as a
 * camera's detail does not), each copy with a comment segment of its own after the SOI marker, so that
 * every file has bytes (and a sha256) of its own without 200 encodes.
 */
async function album(root: string, count: number): Promise<{ dir: string; bytes: number }> {
  const dir = path.join(root, ALBUM);
  await mkdir(dir);
  const jpeg = await sharp({ create: { width: 1795, height: 1205, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 92 }).withMetadata({ density: 300 }).toBuffer();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const text = Buffer.from(`photo ${i + 1}`);
    const com = Buffer.alloc(4);
    com.writeUInt16BE(0xfffe, 0);
    com.writeUInt16BE(text.length + 2, 2);
    const file = Buffer.concat([jpeg.subarray(0, 2), com, text, jpeg.subarray(2)]);
    bytes += file.length;
    await writeFile(path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.jpg`), file);
  }
  return { dir, bytes };
}

/** Counts the body bytes of chunk requests (POST /api/files/updateFile) and linkFile calls, from the DevTools protocol's events. */
function wireCounter(cdp: CDPSession) {
  const chunkIds = new Set<string>();
  const lengths = new Map<string, number>();
  const sum = { bytes: 0, chunks: 0, links: 0, firstAskAt: 0, lastAskAt: 0, lastLinkAt: 0 };
  const linkIds = new Set<string>();
  const settle = (id: string) => {
    const n = lengths.get(id);
    if (n === undefined || !chunkIds.has(id)) return;
    chunkIds.delete(id);
    lengths.delete(id);
    sum.bytes += n;
  };
  cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string; method: string } }) => {
    if (e.request.method !== 'POST') return;
    const p = new URL(e.request.url).pathname;
    if (p === '/api/files/linkFile') {
      sum.links++;
      linkIds.add(e.requestId);
    }
    if (p === '/api/files/knownHashes') {
      sum.firstAskAt ||= performance.now();
      sum.lastAskAt = performance.now();
    }
    if (p !== '/api/files/updateFile') return;
    sum.chunks++;
    chunkIds.add(e.requestId);
    settle(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e: { requestId: string }) => {
    if (linkIds.delete(e.requestId)) sum.lastLinkAt = performance.now();
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e: { requestId: string; headers: Record<string, string> }) => {
    const length = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'content-length')?.[1];
    if (length === undefined) return;
    lengths.set(e.requestId, Number(length));
    settle(e.requestId);
  });
  return {
    reset: () => Object.assign(sum, { bytes: 0, chunks: 0, links: 0, firstAskAt: 0, lastAskAt: 0, lastLinkAt: 0 }),
    read: () => ({ ...sum }),
  };
}

async function throttle(cdp: CDPSession) {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2, downloadThroughput: 1000 * MBIT, uploadThroughput: UPLOAD_BYTES_PER_S });
}

/** Picks the folder and waits for its work's row; answers the ms, and when the pick began. */
async function pickUntilRow(page: Page, dir: string): Promise<{ ms: number; t0: number }> {
  const t0 = performance.now();
  await page.getByTestId('upload-folder-input').setInputFiles(dir);
  await page.getByTestId('work-name').getByText(ALBUM, { exact: true }).waitFor({ timeout: ROW_TIMEOUT_MS });
  return { ms: performance.now() - t0, t0 };
}

const benchmark: Benchmark = {
  name: 'repick',
  description: 'a 200-photo folder picked again after a reload (upload throttled to 100 Mbit/s): time and bytes sent, vs the first pick',
  goal: { ratioMax: 0.1 },
  async run(ctx) {
    const count = ctx.quick ? 20 : 200;
    buildWebIfStale(ctx);
    const root = await ctx.tmpDir('repick');
    const [server, browser, photos] = await Promise.all([startBenchServer(ctx), startBrowser(ctx), album(root, count)]);
    ctx.log(`${count} photos, ${(photos.bytes / 1e6).toFixed(1)} MB`);
    const { context, page } = await openBatchUpload(ctx, browser, server);
    const cdp = await context.newCDPSession(page);
    const wire = wireCounter(cdp);
    await throttle(cdp);

    ctx.log('first pick');
    const { ms: firstMs } = await pickUntilRow(page, photos.dir);
    await page.waitForTimeout(500);
    const first = wire.read();

    ctx.log('reload, pick again');
    await page.reload();
    await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
    await page.waitForTimeout(500);
    await throttle(cdp);
    wire.reset();
    const { ms: againMs, t0: againAt } = await pickUntilRow(page, photos.dir);
    await page.waitForTimeout(500);
    const again = wire.read();
    const rawTransferMs = (first.bytes / UPLOAD_BYTES_PER_S) * 1000;
    const extra = {
      photos: count,
      'folder MB': +(photos.bytes / 1e6).toFixed(1),
      'first pick chunk requests': first.chunks,
      'first pick MB sent': +(first.bytes / 1e6).toFixed(1),
      're-pick chunk requests': again.chunks,
      're-pick linkFile calls': again.links,
      're-pick bytes sent': again.bytes,
      're-pick: first hash asked at ms': Math.round(again.firstAskAt - againAt),
      're-pick: last hash asked at ms': Math.round(again.lastAskAt - againAt),
      're-pick: last file linked at ms': Math.round(again.lastLinkAt - againAt),
      'raw transfer of the first pick ms (100 Mbit/s)': Math.round(rawTransferMs),
      're-pick ms / raw transfer': +(againMs / rawTransferMs).toFixed(3),
    };
    return [
      { metric: 're-pick time', figure: { value: Math.round(againMs), unit: 'ms' }, baseline: { value: Math.round(firstMs), unit: 'ms' }, ratio: againMs / firstMs, goal: { ratioMax: 0.1 }, extra },
      { metric: 're-pick bytes sent', figure: { value: again.bytes, unit: 'B' }, baseline: { value: first.bytes, unit: 'B' }, ratio: again.bytes / Math.max(1, first.bytes), goal: { ratioMax: 0.01 } },
    ];
  },
};

export default benchmark;
