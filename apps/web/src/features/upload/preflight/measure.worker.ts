/**
 * A Web Worker that measures picked images as they are picked (issue #21 item 1), by the rules of
 * @portal/measure, the same the server's image reader applies: each image on the first IMAGE_HEAD_BYTES
 * of its file, reading further only where a header reaches past them (a large EXIF block). PDFs are
 * measured by pdf.worker.ts (its own file: pdf-lib is ≈ 600 KB of script a photo pick never needs).
 * Up to IN_FLIGHT files are read at once; answers go back in groups, so a folder of 2,000 photos is a few
 * dozen messages to the page, not 2,000.
 * Every failure is an answer of null, never an error of the worker.
 */
import { IMAGE_HEAD_BYTES, measureImage, type ByteSource } from '@portal/measure';
import type { FileMeasure } from './measurer.ts';

export type MeasureRequest = { request: number; files: ReadonlyArray<{ id: string; file: Blob }> };
export type MeasureAnswer = { request: number; results: ReadonlyArray<{ id: string; measure: FileMeasure | null }> };

/** Answers per message at most; the rest follow in the next. */
const GROUP = 100;

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
        const { id, file } = files[next++]!;
        const measure = await sourceOf(file).then(measureImage).catch(() => null);
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
