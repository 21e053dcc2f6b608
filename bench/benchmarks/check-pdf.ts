/**
 * The file check of a work that is one 300-page PDF (POST /api/sales_order/checkFile, ../shared/spec/decisions.md §5:
 * each page measured on its TrimBox, else CropBox, else MediaBox, after /Rotate) on the real server,
 * against pdf-lib's bare page-box loop in this process: `PDFDocument.load(bytes)`, then every page's
 * getTrimBox() (pdf-lib falls back to the CropBox, then the MediaBox, as the check does) and
 * getRotation().
 *
 * The PDF is made with pdf-lib: pages of a 5寸 photo (127×89 mm) with a line of text and a frame;
 * most have only a MediaBox, some a TrimBox inside a bleed, a CropBox on a larger sheet, a portrait
 * sheet turned by /Rotate 90, or a TrimBox with /Rotate 270, and some are portrait (automatic
 * orientation). Checked against the demo shop's 5寸 photo SKU (PH-5, up to 500 pages), every page
 * passes. Each timed run checks a work never checked before (the same bytes uploaded into its own
 * folder and parsed, untimed), as check-work does; a re-check of a checked work is in the details,
 * and so is what reading the page sizes cost the upload (readPdfMeta, in this process).
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts, degrees, rgb, type PDFPage } from 'pdf-lib';
import { readPdfMeta } from '@portal/server/src/media/pdf.ts';
import { startBenchServer } from '../lib/server.ts';
import { median, timed } from '../lib/timing.ts';
import type { Benchmark } from '../lib/types.ts';
import { uploadToServer } from '../lib/upload.ts';
import { checkNewWorks, findSku, parseWorks, rowsOf, type ParsedWork } from '../lib/works.ts';

const FILE = '照片书.pdf';
const mmToPt = (mm: number) => (mm / 25.4) * 72;
const W = mmToPt(127);
const H = mmToPt(89);
const BLEED = mmToPt(3);

/** What the i-th page declares: its boxes and rotation vary with i % 10. */
function pageVariant(i: number): { size: [number, number]; setup?: (p: PDFPage) => void; kind: string } {
  switch (i % 10) {
    case 0:
    case 5:
      return { kind: 'TrimBox in a 3 mm bleed', size: [W + 2 * BLEED, H + 2 * BLEED], setup: (p) => p.setTrimBox(BLEED, BLEED, W, H) };
    case 2:
      return { kind: 'CropBox on an A4 sheet', size: [mmToPt(210), mmToPt(297)], setup: (p) => p.setCropBox(mmToPt(40), mmToPt(100), W, H) };
    case 4:
      return { kind: 'portrait sheet, /Rotate 90', size: [H, W], setup: (p) => p.setRotation(degrees(90)) };
    case 7:
      return { kind: 'TrimBox and /Rotate 270', size: [H + 2 * BLEED, W + 2 * BLEED], setup: (p) => { p.setTrimBox(BLEED, BLEED, H, W); p.setRotation(degrees(270)); } };
    case 8:
      return { kind: 'portrait MediaBox', size: [H, W] };
    default:
      return { kind: 'MediaBox only', size: [W, H] };
  }
}

async function makePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const v = pageVariant(i);
    const page = doc.addPage(v.size);
    page.drawRectangle({ x: 12, y: 12, width: v.size[0] - 24, height: v.size[1] - 24, borderColor: rgb(0.8, 0.5, 0.3), borderWidth: 2, color: rgb(0.95, 0.92, 0.88) });
    page.drawText(`Page ${i + 1}: ${v.kind}`, { x: 24, y: v.size[1] / 2, size: 12, font, color: rgb(0.2, 0.2, 0.2) });
    v.setup?.(page);
  }
  return Buffer.from(await doc.save());
}

/** The baseline: every page's trim box (pdf-lib's fallbacks included) and rotation, in mm as displayed. */
async function pageBoxes(bytes: Uint8Array): Promise<Array<[number, number]>> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const box = page.getTrimBox();
    const turned = page.getRotation().angle % 180 !== 0;
    const [w, h] = turned ? [box.height, box.width] : [box.width, box.height];
    return [Math.round((w / 72) * 254) / 10, Math.round((h / 72) * 254) / 10];
  });
}

const benchmark: Benchmark = {
  name: 'check-pdf',
  description: 'checkFile of a work of one 300-page PDF (first check) vs pdf-lib load + getTrimBox()/getRotation() of every page',
  goal: { ratioMax: 1.5 },
  async run(ctx) {
    const pages = ctx.quick ? 60 : 300;
    const runs = ctx.quick ? 3 : 15;
    const warmup = 5;
    const bytes = await makePdf(pages);
    const file = path.join(await ctx.tmpDir('check-pdf'), FILE);
    await writeFile(file, bytes);
    const expected = await pageBoxes(bytes);

    const server = await startBenchServer(ctx);
    const sku = await findSku(server, 'PH-5');
    const works: ParsedWork[] = [];
    for (let i = 0; i < runs + warmup; i++) {
      const folderId = randomUUID();
      await uploadToServer(server, [{ relativePath: FILE, bytes }], folderId);
      const parsed = await parseWorks(server, `upload/${folderId}/${FILE}`);
      if (parsed.length !== 1 || parsed[0]!.pageCount !== pages) throw new Error(`the PDF parsed into ${JSON.stringify(parsed).slice(0, 300)}, expected one work of ${pages} pages`);
      works.push(parsed[0]!);
    }
    ctx.log(`${works.length} works of one ${pages}-page PDF (${(bytes.length / 1e6).toFixed(2)} MB) uploaded and parsed; checking against ${sku.label}`);

    const { p, last, recheckRuns } = await checkNewWorks(server, works, sku, { runs, warmup, baseline: () => pageBoxes(bytes) });
    const rows = rowsOf(last);
    if (last.state !== 200 || rows.length !== pages) throw new Error(`the check of ${pages} fitting pages did not pass with a row each: ${JSON.stringify(last).slice(0, 500)}`);
    // Both sides did the same work: every page's size as displayed, the same to 0.1 mm.
    rows.forEach((r, i) => {
      const [w, h] = expected[i]!;
      if (r.page !== i + 1 || Math.abs(r.width - w) > 0.1 || Math.abs(r.height - h) > 0.1) {
        throw new Error(`page ${i + 1}: the check measured ${r.width}×${r.height} mm, pdf-lib ${w}×${h} mm`);
      }
    });

    // What the upload spent on the page sizes the check reads back (the server's reader, warm, in this process).
    const atUpload: number[] = [];
    for (let i = 0; i < 5; i++) atUpload.push((await timed(() => readPdfMeta(file))).ms);

    const figure = { value: p.figureMs, unit: 'ms' };
    const baseline = { value: p.baselineMs, unit: 'ms' };
    return {
      metric: `time/${pages} pages`,
      figure,
      baseline,
      ratio: figure.value / baseline.value,
      extra: {
        pages,
        'PDF MB': bytes.length / 1e6,
        SKU: sku.label,
        runs,
        'per page ms': p.figureMs / pages,
        'baseline per page ms': p.baselineMs / pages,
        'runs ms': p.figureRuns.map((v) => v.toFixed(1)).join(' '),
        'baseline runs ms': p.baselineRuns.map((v) => v.toFixed(1)).join(' '),
        're-check of a checked work ms (median)': median(recheckRuns),
        're-check runs ms': recheckRuns.map((v) => v.toFixed(1)).join(' '),
        'readPdfMeta ms at upload (not in the figure; median of 5)': median(atUpload),
      },
    };
  },
};

export default benchmark;
