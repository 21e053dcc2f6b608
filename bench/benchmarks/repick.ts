/**
 * Issue #21 item 2, bytes the shop already has are not sent: a folder of 200 distinct 6寸 photos
 * (1795×1205 px noise JPEGs, ≈ 2 MB each) picked in headless Chromium with the upload throttled to
 * 100 Mbit/s through the DevTools protocol, until its work is a row of the order table; then the page is
 * left, the login's open draft closed (重置's call) and the page opened again, and the same folder picked
 * again. Without the draft the page knows nothing of the files (the draft would restore the work at once
 * and know each file by its path, size and time: draft-resume measures that), so only the hub's bytes can
 * spare them: every file's hash (hashed, or remembered by the browser from the first pick) asked about
 * (knownHashes), then linked (linkFiles, many files a call). Figures: the re-pick's time and bytes sent (the Content-Length
 * of every chunk request the browser put on the wire, Network.requestWillBeSentExtraInfo); baseline: the
 * first pick's, in the same run.
 */
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { watchWire } from '../../e2e/support/chunks.ts';
import { albumOnBatchPage, throttleToShopLine, UP_BITS_PER_S } from '../lib/album.ts';
import { freshBatchUpload } from '../lib/browser.ts';
import type { Benchmark } from '../lib/types.ts';

/** The shop's line: 100 Mbit/s up, 1 Gbit/s down. */
const ROW_TIMEOUT_MS = 10 * 60_000;
const ALBUM = '二百张照片';

/** 1795×1205 px at 300 dpi, ≈ 2 MB each. */
const PICTURE = { width: 1795, height: 1205, sigma: 40 };

/** Picks the folder and waits for its work's row; answers the ms, and when the pick began. */
async function pickUntilRow(page: Page, dir: string): Promise<{ ms: number; t0: number }> {
  const t0 = performance.now();
  await page.getByTestId('upload-folder-input').setInputFiles(dir);
  try {
    await page.getByTestId('work-name').getByText(ALBUM, { exact: true }).waitFor({ timeout: ROW_TIMEOUT_MS });
  } catch (err) {
    throw new Error(`repick: the work ${ALBUM} not listed within ${ROW_TIMEOUT_MS / 60_000} min of the pick`, { cause: err });
  }
  return { ms: performance.now() - t0, t0 };
}

const benchmark: Benchmark = {
  name: 'repick',
  description: 'a 200-photo folder picked again on the page opened anew, its draft closed (upload throttled to 100 Mbit/s): time and bytes sent, vs the first pick',
  goal: { ratioMax: 0.1 },
  async run(ctx) {
    const count = ctx.quick ? 20 : 200;
    const { server, photos, page, cdp } = await albumOnBatchPage(ctx, ALBUM, count, PICTURE);
    const wire = await watchWire(cdp);
    await throttleToShopLine(cdp);

    ctx.log('first pick');
    const { ms: firstMs } = await pickUntilRow(page, photos.dir);
    await page.waitForTimeout(500);
    const first = wire.read();

    ctx.log('the page left, its draft closed, opened again; pick again');
    await freshBatchUpload(page, server);
    if (await page.getByTestId('work-name').count()) throw new Error('repick: the page opened again with works listed: the draft was not closed');
    await page.waitForTimeout(500);
    await throttleToShopLine(cdp);
    wire.reset();
    const { ms: againMs, t0: againAt } = await pickUntilRow(page, photos.dir);
    await page.waitForTimeout(500);
    const again = wire.read();
    /** ms from the re-pick's start to a moment the wire saw (0 from watchWire: it never came). */
    const since = (at: number) => (at ? Math.round(at - againAt) : 'none');
    const rawTransferMs = (first.bytes * 8 * 1000) / UP_BITS_PER_S;
    const extra = {
      photos: count,
      'folder MB': +(photos.bytes / 1e6).toFixed(1),
      'first pick chunk requests': first.chunks,
      'first pick MB sent': +(first.bytes / 1e6).toFixed(1),
      're-pick chunk requests': again.chunks,
      're-pick files linked': again.links,
      're-pick link calls': again.linkCalls,
      're-pick bytes sent': again.bytes,
      're-pick: first hash asked at ms': since(again.firstAskAt),
      're-pick: last hash asked at ms': since(again.lastAskAt),
      're-pick: last file linked at ms': since(again.lastLinkAt),
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
