// One PDF page to a JPEG, on a worker thread of the preview pool (media/preview.ts makePdfPagePreview is
// the other end). pdf.js parses and draws on the thread that calls it, so on the server's own thread a
// page held up every request of every customer for as long as it took; here it holds up nothing, and a
// page that takes too long is stopped by ending its thread. Plain JavaScript: a worker thread does not
// inherit the TypeScript loader under every runner (Vitest's forks do not).
//
// Task in:  { url, pageNumber, maxSide, quality, maxImagePixels, assets: { standardFontDataUrl, cMapUrl, wasmUrl, iccUrl } }
// Answer:   { outcome: 'rendered', jpeg } | { outcome: 'encrypted' } | { outcome: 'no-document' } | { outcome: 'not-rendered' }
import { createCanvas } from '@napi-rs/canvas';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

export default async function renderPdfPage({ url, pageNumber, maxSide, quality, maxImagePixels, assets }) {
  // Read in ranges as pages ask for them, not streamed whole nor fetched ahead: the document is opened
  // for this one page, so only the cross-reference data and the page's own objects are read.
  const loading = pdfjs.getDocument({
    url,
    disableStream: true,
    disableAutoFetch: true,
    maxImageSize: maxImagePixels,
    ...assets,
    cMapPacked: true,
    isEvalSupported: false,
    verbosity: 0,
  });
  let page;
  try {
    let doc;
    try {
      doc = await loading.promise;
    } catch (e) {
      return { outcome: e instanceof Error && e.name === 'PasswordException' ? 'encrypted' : 'no-document' };
    }
    if (pageNumber > doc.numPages) return { outcome: 'not-rendered' };
    try {
      page = await doc.getPage(pageNumber);
      const unit = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: maxSide / Math.max(unit.width, unit.height, 1) });
      const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas, canvasContext: context, viewport }).promise;
      return { outcome: 'rendered', jpeg: await canvas.encode('jpeg', quality) };
    } catch {
      return { outcome: 'not-rendered' };
    }
  } finally {
    page?.cleanup();
    await loading.destroy();
  }
}
