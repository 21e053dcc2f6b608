// Everything the server asks of pdf.js runs here, on the worker threads of media/pdfjs.ts (the other
// end): pdf.js parses and draws on the thread that calls it, so on the server's own thread a file held up
// every request for as long as it took, and its time limit could not even fire; here a task over its time
// has its thread ended. Two tasks (piscina runs the export named by the caller):
//   open   { data }  → { outcome: 'opened', encrypted } | { outcome: 'encrypted' } | { outcome: 'no-document', reason }
//   render { url, pageNumber, maxSide, quality, maxImagePixels }
//          → { outcome: 'rendered', jpeg } | { outcome: 'encrypted' } | { outcome: 'no-document', reason } | { outcome: 'not-rendered' }
//
// Plain JavaScript on purpose: through the server's tsx loader, loading pdf.js took 2-3 s and 450 MB
// (the pools start their threads without it), and a worker thread does not inherit the TypeScript loader
// under every runner (Vitest's forks do not).
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

// pdf.js leaves some of its internal promises rejected when it meets a damaged file (a bad flate
// stream, a broken object stream), after the document's own promise has already answered. In the
// server's thread that would end the process; on these threads they are dropped.
process.on('unhandledRejection', () => {});

/** Fonts, character maps, decoders and colour profiles that pdf.js reads from its own package. */
const ASSETS = (() => {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json, but its main entry is in build/.
  const root = path.resolve(path.dirname(require.resolve('pdfjs-dist')), '..');
  const dir = (name) => `${path.join(root, name)}${path.sep}`;
  return { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), cMapPacked: true, wasmUrl: dir('wasm'), iccUrl: dir('iccs') };
})();

/** Options of every document, whichever task opens it. */
const COMMON = { ...ASSETS, isEvalSupported: false, verbosity: 0 };

/** PasswordException → encrypted; any other failure to open → no document. */
function failed(e) {
  if (e instanceof Error && e.name === 'PasswordException') return { outcome: 'encrypted' };
  return { outcome: 'no-document', reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

/** Whether pdf.js opens the file (the bytes, whole), and whether it is encrypted (owner password only). */
export async function open({ data }) {
  const loading = pdfjs.getDocument({ data, ...COMMON });
  try {
    const doc = await loading.promise;
    const { info } = await doc.getMetadata();
    return { outcome: 'opened', encrypted: Boolean(info && info.EncryptFilterName) };
  } catch (e) {
    return failed(e);
  } finally {
    await loading.destroy().catch(() => {});
  }
}

/** How long a thread keeps the document it last rendered a page of, for that file's next pages. */
const KEEP_MS = 30_000;
/** { key, loading, doc, timer }: one document a thread, the last file's (in memory: its parsed objects). */
let kept;

function forget() {
  if (!kept) return;
  clearTimeout(kept.timer);
  void kept.loading.destroy().catch(() => {});
  kept = undefined;
}

/**
 * The document of `url`, opened again unless this thread opened it a moment ago (pdf.js reads every
 * page's dictionary of a flat page tree on opening: the later pages of a preview dialog skip that).
 * The key holds the file's size and time, so a file written anew is opened anew.
 */
async function documentOf(url, maxImagePixels) {
  const { size, mtimeMs } = await stat(new URL(url));
  const key = `${url} ${size} ${mtimeMs} ${maxImagePixels}`;
  if (kept?.key !== key) {
    forget();
    // Read in ranges as pages ask for them, not streamed whole nor fetched ahead: only the
    // cross-reference data and the objects of the pages asked for are read.
    const loading = pdfjs.getDocument({ url, disableStream: true, disableAutoFetch: true, maxImageSize: maxImagePixels, ...COMMON });
    kept = { key, loading, doc: undefined, timer: undefined };
    try {
      kept.doc = await loading.promise;
    } catch (e) {
      forget();
      throw e;
    }
  }
  clearTimeout(kept.timer);
  // An idle thread is ended by its pool; until then the timer must not keep it alive.
  kept.timer = setTimeout(forget, KEEP_MS).unref();
  return kept.doc;
}

/** One page to a JPEG. */
export async function render({ url, pageNumber, maxSide, quality, maxImagePixels }) {
  let doc;
  try {
    doc = await documentOf(url, maxImagePixels);
  } catch (e) {
    return failed(e);
  }
  if (pageNumber > doc.numPages) return { outcome: 'not-rendered' };
  let page;
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
  } finally {
    page?.cleanup();
    // The kept document holds its structure, not each page's fonts and images.
    await doc.cleanup().catch(() => {});
  }
}
