/**
 * A Web Worker that measures picked images as they are picked (issue #21 item 1): the rules of
 * @portal/measure, the same the server's image reader applies, on the first IMAGE_HEAD_BYTES of each
 * file, reading further only where a header reaches past them (a large EXIF block). Answers go back in
 * groups, so a folder of 2,000 photos is a few dozen messages to the page, not 2,000.
 */
import { IMAGE_HEAD_BYTES, measureImage, type ByteSource, type ImageMeasure } from '@portal/measure';

export type MeasureRequest = { request: number; files: ReadonlyArray<{ id: string; file: Blob }> };
export type MeasureAnswer = { request: number; results: ReadonlyArray<{ id: string; measure: ImageMeasure | null }> };

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

let queue = Promise.resolve();

self.onmessage = (event: MessageEvent<MeasureRequest>) => {
  const { request, files } = event.data;
  queue = queue.then(async () => {
    let results: Array<{ id: string; measure: ImageMeasure | null }> = [];
    for (const { id, file } of files) {
      const measure = await sourceOf(file).then(measureImage).catch(() => null);
      results.push({ id, measure });
      if (results.length >= GROUP) {
        self.postMessage({ request, results } satisfies MeasureAnswer);
        results = [];
      }
    }
    if (results.length > 0) self.postMessage({ request, results } satisfies MeasureAnswer);
  });
};
