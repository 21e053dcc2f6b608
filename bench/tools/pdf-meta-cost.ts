/**
 * What reading a PDF's pages costs at upload (readPdfMeta): wall time and peak RSS, each file in a
 * fresh process so that one file's memory does not hide another's. The corpus PDFs and a 3,000-page
 * PDF made here. Not a benchmark with a goal: a record for docs/decisions.md, PDFs, and bench/HISTORY.md (how the PDF reader was
 * chosen). Run: node --import tsx bench/tools/pdf-meta-cost.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';

const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--one') {
  const { readPdfMeta } = await import('@portal/server/src/media/pdf.ts');
  const file = process.argv[3]!;
  const rssBefore = process.resourceUsage().maxRSS;
  const times: number[] = [];
  let result = '';
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    try {
      const meta = await readPdfMeta(file);
      result = `${meta.pages} pages`;
    } catch (e) {
      result = (e as { code?: string }).code ?? String(e);
    }
    times.push(performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(JSON.stringify({ first: times[0], median: sorted[2], maxRssMb: process.resourceUsage().maxRSS / 1024, rssBeforeMb: rssBefore / 1024, result }));
  process.exit(0);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'pdf-meta-cost-'));
const big = path.join(dir, '3000p.pdf');
const doc = await PDFDocument.create();
for (let i = 0; i < 3000; i++) {
  const page = doc.addPage(i % 2 ? [595.28, 841.89] : [841.89, 595.28]);
  page.drawText(`Page ${i + 1}`, { x: 20, y: 20, size: 9 });
  if (i % 3 === 0) page.setTrimBox(9, 9, page.getWidth() - 18, page.getHeight() - 18);
}
await writeFile(big, await doc.save());

const corpus = path.resolve(path.dirname(self), '../../../shared/corpus/pdf');
const files = [...(existsSync(corpus) ? readdirSync(corpus).map((f) => path.join(corpus, f)) : []), big];
console.log('file\tresult\tfirst ms\tmedian ms (of 5)\tpeak RSS MB');
for (const file of files) {
  const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--one', file], { encoding: 'utf8' });
  const r = JSON.parse(out.trim().split('\n').pop()!) as { first: number; median: number; maxRssMb: number; result: string };
  console.log(`${path.basename(file)}\t${r.result}\t${r.first.toFixed(1)}\t${r.median.toFixed(1)}\t${r.maxRssMb.toFixed(0)}`);
}
await rm(dir, { recursive: true, force: true });
