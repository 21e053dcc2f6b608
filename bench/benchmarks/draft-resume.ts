/**
 * The same folder picked again after a reload (issue #21 item 4, the part of item 3): a folder of
 * 200 photos (≈ 500 MB, every file different) is uploaded through 上传文件夹's input in headless
 * Chromium over a line throttled to 100 Mbit/s up with the DevTools protocol
 * (Network.emulateNetworkConditions), against the real server.
 *
 * - after: the folder uploads and parses into its work, the page saves its draft and is reloaded,
 *   and the same folder is picked again. Figure: the bytes of chunk requests sent after the reload,
 *   against the batch's bytes (goal ≤ 1 %); and the time from the pick until the page says the
 *   files were uploaded already, against the raw transfer time of the batch's bytes at 100 Mbit/s
 *   (goal ≤ 0.1×). No content hash is needed for it: the restored draft knows each file by its path,
 *   size and modification time.
 * - middle: after 重置, a folder of the same name and count whose every file is new to the hub (the
 *   same pictures, each with another JPEG comment: distinctJpeg), so that its bytes are sent, not
 *   linked from the hub's (issue #21 item 2, content dedupe); reloaded once half of its bytes went
 *   out, then picked again until its work shows. Figure: the bytes sent more than once
 *   (every chunk request's body over both halves, less the batch and the multipart fields), against
 *   the batch (goal ≤ 1 %); the resumed half's time against the raw transfer time of the bytes that
 *   were left (reported: those bytes must go over the line).
 *
 * One run each (a round is ≈ 2 minutes of throttled transfer); QUICK: 20 photos.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { throttleUpload } from '../../e2e/support/browser.ts';
import { formField } from '../../e2e/support/chunks.ts';
import { distinctJpeg } from '../../e2e/support/upload-fixtures.ts';
import { BATCH_UPLOAD_HEADING, buildWebIfStale, openBatchUpload, startBrowser } from '../lib/browser.ts';
import { noiseImage } from '../lib/images.ts';
import { startBenchServer } from '../lib/server.ts';
import type { Benchmark, Measurement } from '../lib/types.ts';

const LINE_BITS_PER_S = 100e6;
const FOLDER = '客户相册';
/** Every wait is bounded: a phase gets this plus four times its raw transfer time. */
const SLACK_MS = 3 * 60_000;

declare const window: { __portalDraft?: () => { saves: number; id: number | null } };

const CHUNK = 2048000;

/**
 * Chunk requests the page sends from now on, and the file bytes they carry (counted when a request
 * goes out, so a request cut off by a reload counts whole: the figure errs on the high side).
 */
async function countChunks(page: Page) {
  const tally = { requests: 0, bytes: 0 };
  await page.route('**/api/files/updateFile', async (route) => {
    const req = route.request();
    if (req.method() === 'POST') {
      const body = req.postDataBuffer();
      const size = Number(formField(body, 'size'));
      const index = Number(formField(body, 'chunkIndex'));
      const total = Number(formField(body, 'chunkTotal'));
      tally.requests++;
      tally.bytes += index < total ? CHUNK : size - (total - 1) * CHUNK;
    }
    await route.continue();
  });
  return tally;
}

/** `what` within `ms`, or an error saying which step did not come (the bench would otherwise wait on). */
async function within<T>(what: string, ms: number, step: (timeout: number) => Promise<T>): Promise<T> {
  try {
    return await step(ms);
  } catch (err) {
    throw new Error(`draft-resume: ${what}: not within ${Math.round(ms / 1000)} s`, { cause: err });
  }
}

const saves = (page: Page) => page.evaluate(() => window.__portalDraft?.().saves ?? 0);
/** Waits for the draft to be saved once more from now on (the page saves debounced). */
async function nextSave(page: Page) {
  const before = await saves(page);
  await within('the draft saved', 30_000, (timeout) => page.waitForFunction((n) => (window.__portalDraft?.().saves ?? 0) > n, before, { timeout }));
}

/** The folder's work as the server parsed it (not the 预检 row a pick shows at once, which names the folder too). */
const workRow = (page: Page) => page.locator('.ant-table-row').filter({ has: page.getByTestId('work-name').getByText(FOLDER, { exact: true }) });

const bench: Benchmark = {
  name: 'draft-resume',
  description: 'the same 200-photo ≈ 500 MB folder picked again after a reload at 100 Mbit/s: bytes sent and time, against the batch and its raw transfer time',
  goal: { ratioMax: 0.01 },
  async run(ctx) {
    const count = ctx.quick ? 20 : 200;
    buildWebIfStale(ctx);
    const dir = await ctx.tmpDir('draft');
    ctx.log(`making ${count} photos, twice (a folder for each phase, no file in both)`);
    const base = await noiseImage({ width: 1650, height: 1100, format: 'jpeg', density: 300 });
    /** The phase's folder, named FOLDER (the work's name) under a folder of the phase's name. */
    const folderOf = async (phase: string) => {
      const folder = path.join(dir, phase, FOLDER);
      await mkdir(folder, { recursive: true });
      let bytes = 0;
      for (let i = 1; i <= count; i++) {
        const file = distinctJpeg(base, `portal bench ${phase} ${String(i).padStart(4, '0')}`);
        bytes += file.length;
        await writeFile(path.join(folder, `IMG_${String(i).padStart(4, '0')}.jpg`), file);
      }
      return { folder, bytes };
    };
    const { folder, bytes: batchBytes } = await folderOf('after');
    const { folder: middleFolder, bytes: middleBytes } = await folderOf('middle');
    const rawMs = (batchBytes * 8 * 1000) / LINE_BITS_PER_S;
    const phaseMs = SLACK_MS + 4 * rawMs;
    const server = await startBenchServer(ctx);
    ctx.defer(() => server.stop());
    const browser = await startBrowser(ctx);
    const { context, page } = await openBatchUpload(ctx, browser, server);
    const cdp = await context.newCDPSession(page);
    await throttleUpload(cdp, LINE_BITS_PER_S);
    const input = page.getByTestId('upload-folder-input');
    const tally = await countChunks(page);

    // --- after: the whole folder first.
    ctx.log(`uploading ${(batchBytes / 1e6).toFixed(0)} MB at 100 Mbit/s (raw ${(rawMs / 1000).toFixed(1)} s)`);
    let t0 = performance.now();
    await input.setInputFiles(folder);
    await within('after: the folder\'s work row after its upload', phaseMs, (timeout) => workRow(page).waitFor({ timeout }));
    const firstUploadMs = performance.now() - t0;
    await nextSave(page);
    await page.reload();
    await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
    await within('after: the work row restored by the reload', 60_000, (timeout) => workRow(page).waitFor({ timeout }));
    const beforeRepick = { ...tally };
    t0 = performance.now();
    await input.setInputFiles(folder);
    await within(`after: the re-pick's message ${count}个文件已上传过，未重新发送`, phaseMs, (timeout) =>
      page.locator('.ant-message').getByText(`${count}个文件已上传过，未重新发送`).waitFor({ timeout }));
    const repickMs = performance.now() - t0;
    // Anything the re-pick might still send would show within this second.
    await page.waitForTimeout(1000);
    const afterBytes = tally.bytes - beforeRepick.bytes;
    const afterRequests = tally.requests - beforeRepick.requests;
    ctx.log(`after: re-pick ${repickMs.toFixed(0)} ms, ${afterRequests} chunk requests`);

    // --- middle: 重置, the folder again, reloaded half-way.
    await page.getByRole('button', { name: '重置' }).click();
    await page.locator('.ant-popover').getByRole('button', { name: '确定' }).click();
    await within('middle: the table emptied by 重置', 30_000, (timeout) => page.locator('.ant-table-row').first().waitFor({ state: 'detached', timeout }));
    const startMiddle = { ...tally };
    await input.setInputFiles(middleFolder);
    for (const until = Date.now() + phaseMs; tally.bytes - startMiddle.bytes < middleBytes / 2;) {
      if (Date.now() > until) {
        throw new Error(`draft-resume: middle: ${((tally.bytes - startMiddle.bytes) / 1e6).toFixed(1)} of the ${(middleBytes / 1e6).toFixed(1)} MB sent in ${Math.round(phaseMs / 1000)} s, not half`);
      }
      await page.waitForTimeout(200);
    }
    await nextSave(page);
    const firstHalfBytes = tally.bytes - startMiddle.bytes;
    await page.reload();
    await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
    await within('middle: 重新选择 after the reload', 60_000, (timeout) => page.getByRole('button', { name: '重新选择' }).waitFor({ timeout }));
    const resumeStart = { ...tally };
    t0 = performance.now();
    await input.setInputFiles(middleFolder);
    await within('middle: the work row after the re-pick', phaseMs, (timeout) => workRow(page).waitFor({ timeout }));
    const resumeMs = performance.now() - t0;
    const secondHalfBytes = tally.bytes - resumeStart.bytes;
    const sentTwice = Math.max(0, firstHalfBytes + secondHalfBytes - middleBytes);
    const leftRawMs = (Math.max(0, middleBytes - firstHalfBytes) * 8 * 1000) / LINE_BITS_PER_S;
    ctx.log(`middle: ${(firstHalfBytes / 1e6).toFixed(0)} MB before the reload, ${(secondHalfBytes / 1e6).toFixed(0)} MB after, in ${(resumeMs / 1000).toFixed(1)} s`);
    await cdp.detach();

    const extra = { photos: count, batchMB: +(batchBytes / 1e6).toFixed(1), rawTransferS: +(rawMs / 1000).toFixed(1), firstUploadS: +(firstUploadMs / 1000).toFixed(1) };
    const rows: Measurement[] = [
      { metric: 'after: bytes sent', figure: { value: afterBytes, unit: 'B' }, baseline: { value: batchBytes, unit: 'B' }, ratio: afterBytes / batchBytes,
        extra: { ...extra, chunkRequests: afterRequests } },
      { metric: 'after: time', goal: { ratioMax: 0.1 }, figure: { value: Math.round(repickMs), unit: 'ms' }, baseline: { value: Math.round(rawMs), unit: 'ms' }, ratio: repickMs / rawMs },
      { metric: 'middle: bytes sent twice', figure: { value: sentTwice, unit: 'B' }, baseline: { value: middleBytes, unit: 'B' }, ratio: sentTwice / middleBytes,
        extra: { batchMB: +(middleBytes / 1e6).toFixed(1), files: 'another folder of the same name, every file new to the hub', beforeReloadMB: +(firstHalfBytes / 1e6).toFixed(1), afterReloadMB: +(secondHalfBytes / 1e6).toFixed(1), requestsCutByTheReloadCountWhole: 'yes' } },
      { metric: 'middle: resumed half time', goal: {}, figure: { value: Math.round(resumeMs), unit: 'ms' }, baseline: { value: Math.round(leftRawMs), unit: 'ms' }, ratio: resumeMs / leftRawMs,
        extra: { note: 'baseline: the raw transfer time of the bytes left at the reload; includes the folder\'s parse' } },
    ];
    return rows;
  },
};

export default bench;
