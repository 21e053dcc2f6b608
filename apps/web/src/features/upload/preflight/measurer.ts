/**
 * The page's side of measure.worker.ts: one worker for the page, made on the first pick. Where no
 * worker can be made the files stay unmeasured and the table waits for the server's parse, as before.
 */
import type { ImageMeasure } from '@portal/measure';
import type { MeasureAnswer, MeasureRequest } from './measure.worker.ts';

export type MeasureResults = ReadonlyArray<{ id: string; measure: ImageMeasure | null }>;

let worker: Worker | null | undefined;
/** Each request's listener and how many of its files are still to be answered. */
const requests = new Map<number, { left: number; onResults: (results: MeasureResults) => void }>();
let nextRequest = 1;

function start(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./measure.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<MeasureAnswer>) => {
      const r = requests.get(event.data.request);
      if (!r) return;
      r.left -= event.data.results.length;
      if (r.left <= 0) requests.delete(event.data.request);
      r.onResults(event.data.results);
    };
  } catch {
    worker = null;
  }
  return worker;
}

/** Measures `files` (images, by id) in the worker; `onResults` hears each group of answers. */
export function measureFiles(files: ReadonlyArray<{ id: string; file: Blob }>, onResults: (results: MeasureResults) => void): void {
  if (files.length === 0) return;
  const w = typeof Worker === 'undefined' ? null : start();
  if (!w) return;
  const request = nextRequest++;
  requests.set(request, { left: files.length, onResults });
  w.postMessage({ request, files } satisfies MeasureRequest);
}
