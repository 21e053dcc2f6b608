/**
 * A Web Worker that hashes picked files (sha256, hash-wasm's WebAssembly): crypto.subtle does not exist
 * on a page served over plain http (a shop's LAN address), and it could not stream a file anyway. The
 * file is read in slices, so a 500 MB file never sits in memory whole, and the page's thread never
 * waits for a hash.
 */
import { createSHA256 } from 'hash-wasm';

/** Bytes read from the file at a time. */
const SLICE_BYTES = 4 * 1024 * 1024;

export type HashRequest = { id: number; file: Blob };
export type HashAnswer = { id: number; sha256: string } | { id: number; error: string };

const hasher = createSHA256();

async function hashOne({ id, file }: HashRequest): Promise<void> {
  try {
    const h = await hasher;
    h.init();
    for (let at = 0; at < file.size; at += SLICE_BYTES) h.update(new Uint8Array(await file.slice(at, at + SLICE_BYTES).arrayBuffer()));
    self.postMessage({ id, sha256: h.digest('hex') } satisfies HashAnswer);
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies HashAnswer);
  }
}

// One file at a time: the one hasher is fed across awaits (each slice's read), so a second file
// started meanwhile would mix its bytes into the first's hash.
let queue = Promise.resolve();
self.onmessage = (event: MessageEvent<HashRequest>) => {
  queue = queue.then(() => hashOne(event.data));
};
