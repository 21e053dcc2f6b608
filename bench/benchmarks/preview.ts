/**
 * Previews (issue #19 item 5) on the real server (child process, PGlite):
 *
 * 1. the first preview of page 1 of a 3,000-page PDF against the first preview of page 1 of a 10-page
 *    one: a preview renders the page asked for, so the length of the document must barely count (goal
 *    ≤ 2×). Each run previews a copy never previewed (uploaded into its own folder, untimed).
 * 2. the server's resident memory after those previews (its peak, VmHWM) against its memory at rest
 *    before them.
 * 3. another customer's first JPEG preview while the demo customer floods the server with 40 PDF page
 *    previews at once, against the same JPEG preview on an idle server: the hubs' queues are served in
 *    turn, so the photo waits for a turn, not for the flood.
 *
 * The PDFs are made with pdf-lib: A4 pages with a frame, a few shapes and a line of text.
 */
import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { noiseImage } from '../lib/images.ts';
import { json, request } from '../lib/http.ts';
import { memoryOf, settledRss } from '../lib/proc.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median, pairedMedians, timed } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { uploadToServer } from '../lib/upload.ts';

type PreviewLink = { name: string; url: string };

async function makePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 40, y: 40, width: 515, height: 762, borderColor: rgb(0.2, 0.3, 0.6), borderWidth: 4, color: rgb(0.93, 0.95, 1) });
    for (let k = 0; k < 12; k++) page.drawCircle({ x: 100 + (k % 4) * 130, y: 200 + Math.floor(k / 4) * 150, size: 50, color: rgb((k % 5) / 5, 0.6, 0.4), opacity: 0.6 });
    page.drawText(`Page ${i}`, { x: 60, y: 720, size: 40, font, color: rgb(0.1, 0.1, 0.1) });
  }
  return Buffer.from(await doc.save());
}

/** Uploads `bytes` as `name` into a folder of its own and answers the file's preview links. */
async function uploadAndList(server: BenchServer, name: string, bytes: Buffer): Promise<PreviewLink[]> {
  const folderId = randomUUID();
  await uploadToServer(server, [{ relativePath: name, bytes }], folderId);
  return server.call<PreviewLink[]>('GET', `/api/sales_order/getPreviewImg?filePath=${encodeURIComponent(`upload/${folderId}/${name}`)}`);
}

/** Fetches a preview; anything but a JPEG is an error that quotes the answer. */
async function preview(server: BenchServer, link: PreviewLink): Promise<void> {
  const res = await request(server.url + link.url);
  if (res.status !== 200) throw new Error(`${link.name}: the preview answered ${res.status}: ${res.text.slice(0, 300)}`);
}

const benchmark: Benchmark = {
  name: 'preview',
  description: 'first preview of page 1 of a 3,000-page PDF vs a 10-page one; memory; a JPEG preview during another hub\'s flood of PDF pages vs alone',
  goal: { ratioMax: 2 },
  async run(ctx) {
    const bigPages = ctx.quick ? 300 : 3000;
    const runs = ctx.quick ? 2 : 7;
    const warmup = 1;
    const floodSize = 40;
    const server = await startBenchServer(ctx);
    const restMb = await settledRss(server.pid);
    const { id_token: partialToken } = await json<{ id_token: string }>(`${server.url}/api/authenticate`, { body: { username: 'partial', password: 'partial' } });
    const hub2: BenchServer = { ...server, token: partialToken, call: (method, path, body) => json(server.url + path, { method, token: partialToken, body }) };

    // 1. Page 1 of a long PDF against page 1 of a short one, each a first preview.
    const big = await makePdf(bigPages);
    const small = await makePdf(10);
    const bigLinks: PreviewLink[] = [];
    const smallLinks: PreviewLink[] = [];
    for (let i = 0; i < runs + warmup; i++) {
      bigLinks.push((await uploadAndList(server, `长文档${i}.pdf`, big))[0]!);
      smallLinks.push((await uploadAndList(server, `短文档${i}.pdf`, small))[0]!);
    }
    ctx.log(`${runs + warmup} copies each of a ${bigPages}-page PDF (${(big.length / 1e6).toFixed(2)} MB) and a 10-page one uploaded`);
    const beforeMb = memoryOf(server.pid);
    const pages = await pairedMedians({
      runs,
      warmup,
      figure: () => preview(server, bigLinks.shift()!),
      baseline: () => preview(server, smallLinks.shift()!),
    });
    const afterMb = memoryOf(server.pid);

    // 3. Hub 2's first JPEG preview while hub 1 floods, against the same on an idle server.
    const floodPdf = await makePdf(floodSize * (runs + warmup));
    const floodLinks = await uploadAndList(server, '洪水.pdf', floodPdf);
    const photo = await noiseImage({ width: 3000, height: 2000, format: 'jpeg', quality: 90 });
    const photos: PreviewLink[] = [];
    for (let i = 0; i < 2 * (runs + warmup); i++) photos.push((await uploadAndList(hub2, `照片${i}.jpg`, photo))[0]!);
    let round = 0;
    const floodWaits: number[] = [];
    const during = async () => {
      const pagesOfRound = floodLinks.slice(round * floodSize, ++round * floodSize);
      let answered = 0;
      let first!: () => void;
      const firstAnswered = new Promise<void>((resolve) => (first = resolve));
      const flood = Promise.all(pagesOfRound.map(async (l) => {
        await preview(server, l);
        if (++answered === 1) first();
      }));
      // The flood is under way (its first page came back, its other requests were sent before it).
      await firstAnswered;
      const { ms } = await timed(() => preview(hub2, photos.shift()!));
      const floodMs = (await timed(() => flood)).ms;
      floodWaits.push(floodMs);
      return ms;
    };
    const jpegDuring: number[] = [];
    const jpegAlone: number[] = [];
    for (let i = 0; i < warmup + runs; i++) {
      const alone = (await timed(() => preview(hub2, photos.shift()!))).ms;
      const withFlood = await during();
      if (i >= warmup) {
        jpegAlone.push(alone);
        jpegDuring.push(withFlood);
      }
    }
    const peak = memoryOf(server.pid);

    const timeRow = {
      metric: `first preview of page 1, ${bigPages} pages vs 10`,
      figure: { value: pages.figureMs, unit: 'ms' },
      baseline: { value: pages.baselineMs, unit: 'ms' },
      ratio: pages.figureMs / pages.baselineMs,
      extra: {
        'PDF MB': big.length / 1e6,
        runs,
        'runs ms': pages.figureRuns.map((v) => v.toFixed(0)).join(' '),
        'baseline runs ms': pages.baselineRuns.map((v) => v.toFixed(0)).join(' '),
        'RSS before previews MB': beforeMb.rssMb,
        'RSS after previews MB': afterMb.rssMb,
        'peak RSS after previews MB': afterMb.peakMb,
      },
    };
    const memoryRow = {
      metric: 'peak RSS after all previews',
      goal: { valueMax: 600 },
      figure: { value: peak.peakMb, unit: 'MB' },
      baseline: { value: restMb, unit: 'MB' },
      ratio: peak.peakMb / restMb,
      extra: { 'RSS at rest MB': restMb, 'peak before the previews MB': beforeMb.peakMb, 'peak after the page-1 previews MB': afterMb.peakMb, 'RSS at the end MB': peak.rssMb },
    };
    const fairRow = {
      metric: `JPEG preview during a ${floodSize}-page flood vs alone`,
      goal: { ratioMax: 4 },
      figure: { value: median(jpegDuring), unit: 'ms' },
      baseline: { value: median(jpegAlone), unit: 'ms' },
      ratio: median(jpegDuring) / median(jpegAlone),
      extra: {
        photo: '3000×2000 JPEG',
        'runs ms': jpegDuring.map((v) => v.toFixed(0)).join(' '),
        'alone runs ms': jpegAlone.map((v) => v.toFixed(0)).join(' '),
        'flood after the photo ms (median)': median(floodWaits),
      },
    };
    return [timeRow, memoryRow, fairRow];
  },
};

export default benchmark;
