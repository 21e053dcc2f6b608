/**
 * A Web Worker that measures picked files as they are picked (issue #21 item 1), by the rules of
 * @portal/measure, the same the server's readers apply:
 * - an image on the first IMAGE_HEAD_BYTES of its file, reading further only where a header reaches past
 *   them (a large EXIF block);
 * - a PDF whole, its page tree through @cantoo/pdf-lib (loaded with the first PDF) and the shared page
 *   rules (@portal/measure/pdf): pages, each one's TrimBox → CropBox → MediaBox and /Rotate in mm. An
 *   encrypted, damaged or larger than PDF_MAX_BYTES file answers null: the server decides.
 * Up to IN_FLIGHT files are read at once; answers go back in groups, so a folder of 2,000 photos is a few
 * dozen messages to the page, not 2,000.
 * Every failure is an answer of null, never an error of the worker.
 */
import { IMAGE_HEAD_BYTES, measureImage, type ByteSource } from '@portal/measure';
import { measurePdf, type PdfLib } from '@portal/measure/pdf';
import type { FileMeasure } from './measurer.ts';

export type MeasureRequest = { request: number; files: ReadonlyArray<{ id: string; file: Blob; pdf?: boolean }> };
export type MeasureAnswer = { request: number; results: ReadonlyArray<{ id: string; measure: FileMeasure | null }> };

/** Answers per message at most; the rest follow in the next. */
const GROUP = 100;
/** A larger PDF is not read into the page's memory: the server measures it. */
export const PDF_MAX_BYTES = 256 * 1024 * 1024;

async function sourceOf(file: Blob): Promise<ByteSource> {
  const head = new Uint8Array(await file.slice(0, IMAGE_HEAD_BYTES).arrayBuffer());
  return {
    head,
    at: async (position, length) =>
      position + length <= head.length || head.length < IMAGE_HEAD_BYTES
        ? head.subarray(position, position + length)
        : new Uint8Array(await file.slice(position, position + length).arrayBuffer()),
  };
}

let pdfLib: Promise<PdfLib> | undefined;

async function pdfMeasure(file: Blob): Promise<FileMeasure | null> {
  if (file.size > PDF_MAX_BYTES) return null;
  pdfLib ??= import('@cantoo/pdf-lib');
  const [lib, bytes] = await Promise.all([pdfLib, file.arrayBuffer()]);
  return measurePdf(lib, new Uint8Array(bytes));
}

/**
 * Files read at once: reading a slice of a picked file is a round trip to the browser's process
 * (≈ 25 ms each one after another under load, bench `preflight`), so several are asked for together.
 */
const IN_FLIGHT = 8;

let queue = Promise.resolve();

self.onmessage = (event: MessageEvent<MeasureRequest>) => {
  const { request, files } = event.data;
  queue = queue.then(async () => {
    let results: Array<{ id: string; measure: FileMeasure | null }> = [];
    let next = 0;
    const lane = async () => {
      while (next < files.length) {
        const { id, file, pdf } = files[next++]!;
        const measure = await (pdf ? pdfMeasure(file) : sourceOf(file).then(measureImage)).catch(() => null);
        results.push({ id, measure });
        if (results.length >= GROUP) {
          self.postMessage({ request, results } satisfies MeasureAnswer);
          results = [];
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, files.length) }, lane));
    if (results.length > 0) self.postMessage({ request, results } satisfies MeasureAnswer);
  });
};
