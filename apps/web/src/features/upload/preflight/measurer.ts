/**
 * The page's side of measure.worker.ts (images) and pdf.worker.ts (PDFs): one worker of each, made on
 * the first pick that needs it, so that a large PDF never holds the photos' sizes. Where no
 * worker can be made the files stay unmeasured and the table waits for the server's parse, as before.
 *
 * The PDF worker reads one file at a time. pdf-lib cannot be stopped while it parses, so a file that
 * takes more than PDF_BUDGET_MS ends that worker: the file answers null (the server decides), and the
 * next PDF gets a new worker.
 */
import type { ImageMeasure } from '@portal/measure';
import type { PdfMeasure } from '@portal/measure/pdf';
import type { MeasureAnswer, MeasureRequest } from './measure.worker.ts';

/** What the worker measured of a file: an image's header, or a PDF's pages (format 'pdf'). */
export type FileMeasure = ImageMeasure | PdfMeasure;
export type MeasureResults = ReadonlyArray<{ id: string; measure: FileMeasure | null }>;
type Listener = (results: MeasureResults) => void;

/** A PDF the preflight has not measured by then is left to the server. */
export const PDF_BUDGET_MS = 10_000;

const isPdf = (name: string) => /\.pdf$/i.test(name);

function newWorker(make: () => Worker, onAnswer: (answer: MeasureAnswer) => void): Worker | null {
  try {
    const w = make();
    w.onmessage = (event: MessageEvent<MeasureAnswer>) => onAnswer(event.data);
    return w;
  } catch {
    return null;
  }
}

let imageWorker: Worker | null | undefined;
/** Each image request's listener and how many of its files are still to be answered. */
const requests = new Map<number, { left: number; onResults: Listener }>();
let nextRequest = 1;

function images(): Worker | null {
  imageWorker ??= newWorker(() => new Worker(new URL('./measure.worker.ts', import.meta.url), { type: 'module' }), (answer) => {
    const r = requests.get(answer.request);
    if (!r) return;
    r.left -= answer.results.length;
    if (r.left <= 0) requests.delete(answer.request);
    r.onResults(answer.results);
  });
  return imageWorker;
}

/** The PDFs still to measure, in pick order, and the one being measured. */
const pdfQueue: Array<{ id: string; file: Blob; onResults: Listener }> = [];
let pdfWorker: Worker | null | undefined;
let pdfInFlight: { request: number; id: string; onResults: Listener; timer: ReturnType<typeof setTimeout> } | null = null;

function nextPdf(): void {
  if (pdfInFlight) return;
  const job = pdfQueue.shift();
  if (!job) return;
  pdfWorker ??= newWorker(() => new Worker(new URL('./pdf.worker.ts', import.meta.url), { type: 'module' }), (answer) => {
    const current = pdfInFlight;
    if (!current || answer.request !== current.request) return;
    clearTimeout(current.timer);
    pdfInFlight = null;
    current.onResults(answer.results);
    nextPdf();
  });
  if (!pdfWorker) {
    pdfQueue.length = 0;
    return;
  }
  const request = nextRequest++;
  const timer = setTimeout(() => {
    if (pdfInFlight?.request !== request) return;
    pdfWorker?.terminate();
    pdfWorker = undefined;
    pdfInFlight = null;
    job.onResults([{ id: job.id, measure: null }]);
    nextPdf();
  }, PDF_BUDGET_MS);
  pdfInFlight = { request, id: job.id, onResults: job.onResults, timer };
  pdfWorker.postMessage({ request, files: [{ id: job.id, file: job.file }] } satisfies MeasureRequest);
}

/**
 * Measures `files` (images and PDFs, by id; the name tells which) in the workers; `onResults` hears
 * each group of answers.
 */
export function measureFiles(files: ReadonlyArray<{ id: string; file: Blob; name: string }>, onResults: Listener): void {
  if (files.length === 0 || typeof Worker === 'undefined') return;
  const pictures = files.filter((f) => !isPdf(f.name)).map(({ id, file }) => ({ id, file }));
  const w = pictures.length > 0 ? images() : null;
  if (w) {
    const request = nextRequest++;
    requests.set(request, { left: pictures.length, onResults });
    w.postMessage({ request, files: pictures } satisfies MeasureRequest);
  }
  for (const f of files) if (isPdf(f.name)) pdfQueue.push({ id: f.id, file: f.file, onResults });
  nextPdf();
}
