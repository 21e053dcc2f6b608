// Plain JavaScript on purpose: the server's worker threads would otherwise load tsx, which
// transforms pdf.js (megabytes) on every start and costs several hundred MB of memory.
import { parentPort } from 'node:worker_threads';

// pdf.js leaves some of its internal promises rejected when it meets a damaged file (a bad flate
// stream, a broken object stream), after the document's own promise has already answered. In the
// server's thread that would end the process; this thread only ever runs pdf.js, so they are dropped.
process.on('unhandledRejection', () => {});

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');

parentPort.on('message', async (data) => {
  const task = pdfjs.getDocument({ data, isEvalSupported: false, verbosity: 0 });
  try {
    const doc = await task.promise;
    const { info } = await doc.getMetadata();
    parentPort.postMessage({ ok: true, encrypted: Boolean(info && info.EncryptFilterName) });
  } catch (e) {
    parentPort.postMessage({ ok: false, name: e instanceof Error ? e.name : 'Error', message: String(e instanceof Error ? e.message : e) });
  } finally {
    await task.destroy().catch(() => {});
  }
});
