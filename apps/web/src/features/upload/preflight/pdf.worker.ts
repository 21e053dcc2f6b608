/**
 * A Web Worker that measures a picked PDF (issue #21 item 1): the whole file, its page tree through
 * @cantoo/pdf-lib and the page rules the server's reader applies (@portal/measure/pdf): pages, each one's
 * TrimBox → CropBox → MediaBox and /Rotate in mm. An encrypted or damaged file, or one larger than
 * PDF_MAX_BYTES, answers null: the server decides. measurer.ts sends one file at a time and ends this
 * worker when a file takes too long. Every failure is an answer of null, never an error of the worker.
 */
import * as pdfLib from '@cantoo/pdf-lib';
import { measurePdf } from '@portal/measure/pdf';
import type { MeasureAnswer, MeasureRequest } from './measure.worker.ts';

/** A larger PDF is not read into the page's memory: the server measures it. */
export const PDF_MAX_BYTES = 256 * 1024 * 1024;

self.onmessage = async (event: MessageEvent<MeasureRequest>) => {
  const { request, files } = event.data;
  for (const { id, file } of files) {
    const measure = file.size > PDF_MAX_BYTES ? null : await file.arrayBuffer().then((b) => measurePdf(pdfLib, new Uint8Array(b))).catch(() => null);
    self.postMessage({ request, results: [{ id, measure }] } satisfies MeasureAnswer);
  }
};
