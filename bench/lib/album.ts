/**
 * A folder of distinct photos, and the batch page that picks it on a shop's line (preflight, repick).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { throttleUpload } from '../../e2e/support/browser.ts';
import { distinctJpeg } from '../../e2e/support/upload-fixtures.ts';
import { buildWebIfStale, openBatchUpload, startBrowser } from './browser.ts';
import { startBenchServer, type BenchServer } from './server.ts';
import type { BenchContext } from './types.ts';

/** The shop's line: 100 Mbit/s up, 1 Gbit/s down. */
export const UP_BITS_PER_S = 100e6;
export const DOWN_BITS_PER_S = 1000e6;

/** The page's upload throttled to the shop's line (DevTools protocol). */
export const throttleToShopLine = (cdp: CDPSession) => throttleUpload(cdp, UP_BITS_PER_S, { downBitsPerS: DOWN_BITS_PER_S });

export interface AlbumPicture {
  width: number;
  height: number;
  /** The noise's spread: more noise, bigger files. */
  sigma: number;
  chromaSubsampling?: '4:2:0' | '4:4:4';
}

/**
 * `count` distinct JPEGs at 300 dpi in the folder `root/name`: one noise picture (noise does not compress, as a
 * camera's detail does not), each copy with a comment segment of its own after the SOI marker, so that every
 * file has bytes (and a sha256) of its own without `count` encodes.
 */
export async function album(root: string, name: string, count: number, picture: AlbumPicture): Promise<{ dir: string; bytes: number }> {
  const dir = path.join(root, name);
  await mkdir(dir);
  const { width, height, sigma, chromaSubsampling } = picture;
  const jpeg = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } })
    .jpeg({ quality: 92, ...(chromaSubsampling ? { chromaSubsampling } : {}) }).withMetadata({ density: 300 }).toBuffer();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const file = distinctJpeg(jpeg, `photo ${i + 1}`);
    bytes += file.length;
    await writeFile(path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.jpg`), file);
  }
  return { dir, bytes };
}

/** The album made, the server and Chromium started, the batch page open with a DevTools session on it (not throttled yet). */
export async function albumOnBatchPage(ctx: BenchContext, name: string, count: number, picture: AlbumPicture): Promise<{
  server: BenchServer; browser: Browser; photos: { dir: string; bytes: number }; context: BrowserContext; page: Page; cdp: CDPSession;
}> {
  buildWebIfStale(ctx);
  const root = await ctx.tmpDir('album');
  const [server, browser, photos] = await Promise.all([startBenchServer(ctx), startBrowser(ctx), album(root, name, count, picture)]);
  ctx.log(`${count} photos, ${(photos.bytes / 1e6).toFixed(1)} MB`);
  const { context, page } = await openBatchUpload(ctx, browser, server);
  const cdp = await context.newCDPSession(page);
  return { server, browser, photos, context, page, cdp };
}
