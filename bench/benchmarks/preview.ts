/**
 * Previews (issue #19 item 5) on the real server (child process, PGlite):
 *
 * 1. the first preview of page 1 of a 3,000-page PDF against the first preview of page 1 of a 10-page
 *    one: a preview renders the page asked for, so the length of the document must barely count (goal
 *    ≤ 2×). Each run previews a copy never previewed (uploaded into its own folder, untimed). Twice: with
 *    the flat page tree pdf-lib writes (one /Pages node, 3,000 kids) and with a balanced one (nodes of
 *    100 pages with their /Count), because pdf.js reads every kid of a flat tree when it opens a file.
 * 2. how far the server's resident memory rose during those previews: its peak (VmHWM, reset after the
 *    uploads) less its memory just before them; the render threads are bounded (2, a 256 MB heap each).
 * 3. another customer's first JPEG preview while the demo customer floods the server with 40 PDF page
 *    previews at once, against the same JPEG preview on an idle server: the hubs' queues are served in
 *    turn, so the photo waits for a turn, not for the flood. The photo is fetched on connections of its
 *    own (another customer's browser), not behind the flood's in the bench's agent.
 *
 * The PDFs are made with pdf-lib: A4 pages with a frame, a few shapes and a line of text. A flat tree's
 * upload writes a preview copy with a balanced tree (apps/server/src/services/preview-copies.ts), which
 * the previews are rendered from; what that costs at upload is in the flat row's details: readPdfMeta
 * as the upload calls it, with the copy's update and the copy written, against readPdfMeta alone, in this
 * process, for 3,000 and 10,000 pages (QUICK: 300 and 1,000), medians of 3.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readPdfMeta } from '@portal/server/src/media/pdf.ts';
import { PDFDict, PDFDocument, PDFName, PDFRef, StandardFonts, rgb } from 'pdf-lib';
import { noiseImage } from '../lib/images.ts';
import { json, request } from '../lib/http.ts';
import { memoryOf, settledRss } from '../lib/proc.ts';
import { startBenchServer, type BenchServer } from '../lib/server.ts';
import { median, pairedMedians, timed, type Paired } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { uploadToServer } from '../lib/upload.ts';

type PreviewLink = { name: string; url: string };

/** The pages' tree as most tools write it: the root's kids are nodes of `perNode` pages with their /Count. */
function balancePageTree(doc: PDFDocument, perNode: number): void {
  const root = doc.catalog.Pages();
  const rootRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
  const leaves = root.Kids().asArray() as PDFRef[];
  const nodes: PDFRef[] = [];
  for (let i = 0; i < leaves.length; i += perNode) {
    const kids = leaves.slice(i, i + perNode);
    const node = doc.context.register(doc.context.obj({ Type: 'Pages', Parent: rootRef, Kids: kids, Count: kids.length }));
    for (const leaf of kids) doc.context.lookup(leaf, PDFDict).set(PDFName.of('Parent'), node);
    nodes.push(node);
  }
  root.set(PDFName.of('Kids'), doc.context.obj(nodes));
}

async function makePdf(pages: number, tree: 'flat' | 'balanced' = 'flat'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 40, y: 40, width: 515, height: 762, borderColor: rgb(0.2, 0.3, 0.6), borderWidth: 4, color: rgb(0.93, 0.95, 1) });
    for (let k = 0; k < 12; k++) page.drawCircle({ x: 100 + (k % 4) * 130, y: 200 + Math.floor(k / 4) * 150, size: 50, color: rgb((k % 5) / 5, 0.6, 0.4), opacity: 0.6 });
    page.drawText(`Page ${i}`, { x: 60, y: 720, size: 40, font, color: rgb(0.1, 0.1, 0.1) });
  }
  if (tree === 'balanced') balancePageTree(doc, 100);
  return Buffer.from(await doc.save());
}

/** ms of readPdfMeta alone and with the preview copy made and written (as an upload does), medians of 3. */
async function copyCost(pages: number): Promise<Record<string, string | number>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-preview-copy-'));
  try {
    const file = path.join(dir, 'flat.pdf');
    const bytes = await makePdf(pages);
    await writeFile(file, bytes);
    const alone: number[] = [];
    const withCopy: number[] = [];
    let copyBytes = 0;
    for (let i = 0; i < 3; i++) {
      alone.push((await timed(() => readPdfMeta(file, { budgetMs: 300_000 }))).ms);
      withCopy.push((await timed(async () => {
        const meta = await readPdfMeta(file, { balanceTree: true, budgetMs: 300_000 });
        if (!meta.balancedTree) throw new Error(`no preview copy for a flat tree of ${pages} pages`);
        const copy = Buffer.concat([bytes, meta.balancedTree]);
        await writeFile(path.join(dir, 'copy.pdf'), copy);
        copyBytes = copy.length;
      })).ms);
    }
    return {
      [`${pages} pages: upload's read with the copy ms`]: median(withCopy).toFixed(0),
      [`${pages} pages: upload's read alone ms`]: median(alone).toFixed(0),
      [`${pages} pages: file / copy MB`]: `${(bytes.length / 1e6).toFixed(2)} / ${(copyBytes / 1e6).toFixed(2)}`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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

/** The same through fetch: its own connection pool, as another customer's browser has. */
async function previewElsewhere(server: BenchServer, link: PreviewLink): Promise<void> {
  const res = await fetch(server.url + link.url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${link.name}: the preview answered ${res.status}`);
}

/** Copies of `big` and of `small`, each uploaded into a folder of its own: page 1's preview links. */
async function copies(server: BenchServer, big: Buffer, small: Buffer, count: number, label: string) {
  const bigLinks: PreviewLink[] = [];
  const smallLinks: PreviewLink[] = [];
  for (let i = 0; i < count; i++) {
    bigLinks.push((await uploadAndList(server, `长文档${label}${i}.pdf`, big))[0]!);
    smallLinks.push((await uploadAndList(server, `短文档${label}${i}.pdf`, small))[0]!);
  }
  return { bigLinks, smallLinks };
}

/** Page 1's first preview of the long PDF against that of the short one, each run on a copy never previewed. */
function firstPageOne(server: BenchServer, c: { bigLinks: PreviewLink[]; smallLinks: PreviewLink[] }, runs: number, warmup: number) {
  return pairedMedians({ runs, warmup, figure: () => preview(server, c.bigLinks.shift()!), baseline: () => preview(server, c.smallLinks.shift()!) });
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

    // 1. Page 1 of a long PDF against page 1 of a short one, each a first preview; 2. memory meanwhile.
    const big = await makePdf(bigPages);
    const bigBalanced = await makePdf(bigPages, 'balanced');
    const small = await makePdf(10);
    ctx.log(`a ${bigPages}-page PDF (${(big.length / 1e6).toFixed(2)} MB), the same with a balanced page tree, and a 10-page one made`);
    const flatCopies = await copies(server, big, small, runs + warmup, 'flat');
    const balancedCopies = await copies(server, bigBalanced, small, runs + warmup, 'balanced');
    const beforeMb = memoryOf(server.pid);
    // VmHWM from here on: the uploads of the long PDFs (their pages measured with pdf-lib) had their own peak.
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const flat = await firstPageOne(server, flatCopies, runs, warmup);
    const balanced = await firstPageOne(server, balancedCopies, runs, warmup);
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
      const { ms } = await timed(() => previewElsewhere(hub2, photos.shift()!));
      const floodMs = (await timed(() => flood)).ms;
      floodWaits.push(floodMs);
      return ms;
    };
    const jpegDuring: number[] = [];
    const jpegAlone: number[] = [];
    for (let i = 0; i < warmup + runs; i++) {
      const alone = (await timed(() => previewElsewhere(hub2, photos.shift()!))).ms;
      const withFlood = await during();
      if (i >= warmup) {
        jpegAlone.push(alone);
        jpegDuring.push(withFlood);
      }
    }
    const copyCosts = { ...(await copyCost(bigPages)), ...(await copyCost(ctx.quick ? 1000 : 10_000)) };
    const pageRow = (p: Paired, tree: string, bytes: Buffer, more: Record<string, string | number> = {}) => ({
      metric: `first preview of page 1, ${bigPages} pages vs 10 (${tree} page tree)`,
      figure: { value: p.figureMs, unit: 'ms' },
      baseline: { value: p.baselineMs, unit: 'ms' },
      ratio: p.figureMs / p.baselineMs,
      extra: {
        'PDF MB': bytes.length / 1e6,
        runs,
        'runs ms': p.figureRuns.map((v) => v.toFixed(0)).join(' '),
        'baseline runs ms': p.baselineRuns.map((v) => v.toFixed(0)).join(' '),
        ...more,
      },
    });
    const growthMb = afterMb.peakMb - beforeMb.rssMb;
    const memoryRow = {
      metric: 'RSS growth during the page-1 previews',
      goal: { valueMax: 300 },
      figure: { value: growthMb, unit: 'MB' },
      baseline: { value: beforeMb.rssMb, unit: 'MB' },
      ratio: growthMb / beforeMb.rssMb,
      extra: { 'RSS at rest after start MB': restMb, 'RSS before the previews (after the uploads) MB': beforeMb.rssMb, 'peak during the previews MB': afterMb.peakMb,
        'RSS after the previews MB': afterMb.rssMb, 'RSS after the flood rounds MB': memoryOf(server.pid).rssMb, 'peak during the flood rounds too MB': memoryOf(server.pid).peakMb },
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
    return [pageRow(flat, 'flat', big, copyCosts), pageRow(balanced, 'balanced', bigBalanced), memoryRow, fairRow];
  },
};

export default benchmark;
