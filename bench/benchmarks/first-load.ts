/**
 * A customer's first visit over a shop's line: Chromium with an empty cache, throttled with the
 * DevTools protocol (Network.emulateNetworkConditions: 20 Mbit/s down, 5 Mbit/s up, 20 ms latency),
 * opens /login until its form shows, then logs in until 批量上传下单 shows. The goals are on what the
 * encoding changes: the bytes and the time until the last file is in; the time to the form adds parsing
 * and running the scripts, the same either way, and is reported. Three real servers over
 * the same build (issue #19 item 2):
 * - brotli: the build as it is, with its .br and .gz copies (apps/web/precompress.ts, @fastify/static
 *   preCompressed); Chromium asks for brotli over https and from localhost, as here;
 * - gzip: a copy of the build with only its .gz copies: what a PC of the shop's LAN gets over plain
 *   http, where Chromium does not ask for brotli (e2e/tests/shop-network.test.ts sees it);
 * - the baseline: a copy without either, as every file went out before.
 * Bytes are what came over the wire (encodedDataLength: headers and body).
 */
import { cp } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import { newPage } from '../../e2e/support/browser.ts';
import { BATCH_UPLOAD_HEADING, buildWebIfStale, startBrowser } from '../lib/browser.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median } from '../lib/timing.ts';
import type { Benchmark, Goal, Measurement } from '../lib/types.ts';
import { perRun } from '../lib/format.ts';

const LINE = { downloadMbit: 20, uploadMbit: 5, latencyMs: 20 };
const FILES_RATIO_MAX = { br: 0.5, gzip: 0.6 };
const BYTES_RATIO_MAX = { br: 0.3, gzip: 0.35 };

interface Visit {
  /** ms from navigation to the last of the login page's files received (Resource Timing's responseEnd). */
  filesMs: number;
  /** ms from navigation to the login form, and from 登录 to the batch page. */
  loginMs: number;
  batchMs: number;
  /** Bytes over the wire for each of those two steps. */
  loginBytes: number;
  batchBytes: number;
}

async function visit(browser: Browser, server: BenchServer): Promise<Visit> {
  const { context, page } = await newPage(browser, { motion: true });
  try {
    const cdp = await context.newCDPSession(page);
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => void (bytes += e.encodedDataLength));
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LINE.latencyMs,
      downloadThroughput: (LINE.downloadMbit * 1e6) / 8,
      uploadThroughput: (LINE.uploadMbit * 1e6) / 8,
    });
    const t0 = performance.now();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('用户名').waitFor();
    const loginMs = performance.now() - t0;
    const loginBytes = bytes;
    // A string, not a function: tsx would put its __name helper into a function's text.
    const filesMs = Number(await page.evaluate(
      'Math.max(...performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource")).map((e) => e.responseEnd))',
    ));
    await page.getByLabel('用户名').fill('demo');
    await page.getByLabel('密码').fill('demo');
    const t1 = performance.now();
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('heading', { name: BATCH_UPLOAD_HEADING }).waitFor();
    return { filesMs, loginMs, batchMs: performance.now() - t1, loginBytes, batchBytes: bytes - loginBytes };
  } finally {
    await context.close();
  }
}

const benchmark: Benchmark = {
  name: 'first-load',
  description: `first visit (/login, then 批量上传下单) in Chromium on a ${LINE.downloadMbit} Mbit/s line: the build's brotli and gzip copies vs the files uncompressed`,
  goal: { ratioMax: FILES_RATIO_MAX.br },
  async run(ctx) {
    const runs = ctx.quick ? 1 : 5;
    // The production build, as a shop serves it, for all three servers (it crashed when only the e2e build was there,
    // and the brotli server served the e2e build beside the others' production copies).
    const dist = buildWebIfStale(ctx, { production: true });
    const copy = async (name: string, drop: RegExp) => {
      const dir = await ctx.tmpDir(name);
      await cp(dist, dir, { recursive: true, filter: (src) => !drop.test(src) });
      return dir;
    };
    const [gzipDist, plainDist] = await Promise.all([copy('gzip-dist', /\.br$/), copy('plain-dist', /\.(?:br|gz)$/)]);
    const [brotli, gzip, plain, browser] = await Promise.all([
      startBenchServer(ctx, { WEB_DIST: dist }),
      startBenchServer(ctx, { WEB_DIST: gzipDist }),
      startBenchServer(ctx, { WEB_DIST: plainDist }),
      startBrowser(ctx),
    ]);
    ctx.log('warm-up: one visit each');
    for (const server of [plain, gzip, brotli]) await visit(browser, server);
    const got = { br: [] as Visit[], gzip: [] as Visit[], none: [] as Visit[] };
    for (let run = 1; run <= runs; run++) {
      ctx.log(`run ${run}/${runs}`);
      got.none.push(await visit(browser, plain));
      got.gzip.push(await visit(browser, gzip));
      got.br.push(await visit(browser, brotli));
    }
    const med = (xs: Visit[], f: (v: Visit) => number) => median(xs.map(f));
    const row = (metric: string, figure: Visit[], f: (v: Visit) => number, unit: string, goal?: Goal): Measurement => ({
      metric,
      ...(goal ? { goal } : {}),
      figure: { value: med(figure, f), unit },
      baseline: { value: med(got.none, f), unit },
      ratio: med(figure, f) / med(got.none, f),
    });
    const ms = (xs: Visit[], f: (v: Visit) => number) => perRun(xs.map(f));
    const filesMs = (v: Visit) => v.filesMs;
    const loginMs = (v: Visit) => v.loginMs;
    const loginKb = (v: Visit) => v.loginBytes / 1000;
    const rows: Measurement[] = [
      {
        ...row('login page\'s files in, brotli', got.br, filesMs, 'ms'),
        extra: { line: `${LINE.downloadMbit}/${LINE.uploadMbit} Mbit/s, ${LINE.latencyMs} ms`, runs,
          'ms (brotli)': ms(got.br, filesMs), 'ms (uncompressed)': ms(got.none, filesMs) },
      },
      {
        ...row('login page\'s files in, gzip (LAN, http)', got.gzip, filesMs, 'ms', { ratioMax: FILES_RATIO_MAX.gzip }),
        extra: { 'ms (gzip)': ms(got.gzip, filesMs) },
      },
      {
        // The files, then parsing and running them (as long either way): reported, no goal.
        ...row('to the login form, brotli', got.br, loginMs, 'ms', {}),
        extra: { 'ms (brotli)': ms(got.br, loginMs), 'ms (uncompressed)': ms(got.none, loginMs) },
      },
      {
        ...row('to the login form, gzip', got.gzip, loginMs, 'ms', {}),
        extra: { 'ms (gzip)': ms(got.gzip, loginMs) },
      },
      {
        ...row('bytes to the login form, brotli', got.br, loginKb, 'kB', { ratioMax: BYTES_RATIO_MAX.br }),
        extra: { counted: 'encodedDataLength of every response: headers and body as sent' },
      },
      row('bytes to the login form, gzip', got.gzip, loginKb, 'kB', { ratioMax: BYTES_RATIO_MAX.gzip }),
      {
        // Mostly the login call and the page's first render: reported, no goal.
        ...row('login to 批量上传下单, brotli', got.br, (v) => v.batchMs, 'ms', {}),
        extra: {
          'kB (brotli)': med(got.br, (v) => v.batchBytes) / 1000,
          'kB (gzip)': med(got.gzip, (v) => v.batchBytes) / 1000,
          'kB (uncompressed)': med(got.none, (v) => v.batchBytes) / 1000,
          'ms (gzip)': ms(got.gzip, (v) => v.batchMs),
        },
      },
    ];
    return rows;
  },
};
export default benchmark;
