import { SLICE_MS, yieldToMain } from '../../../lib/yield.ts';

/** Characters gathered before they are encoded as one piece of the body. */
const ENCODE_CHARS = 256 * 1024;

/**
 * A JSON request body made of `parts` (strings, produced lazily by the iterable) as UTF-8 bytes, built
 * in slices of at most about `sliceMs` of work between tasks (lib/yield.ts), so that a 2,000-work
 * draft never holds the main thread for one long task: neither its JSON text nor the copy fetch
 * makes of a string body (its UTF-8 encoding) happen in one piece. The Blob only refers to the pieces.
 */
export async function jsonInSlices(
  parts: Iterable<string>,
  options: { sliceMs?: number; yieldNow?: () => Promise<void> } = {},
): Promise<Blob> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const yieldNow = options.yieldNow ?? yieldToMain;
  const encoder = new TextEncoder();
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  let pending: string[] = [];
  let pendingChars = 0;
  const encodePending = () => {
    if (pending.length === 0) return;
    pieces.push(encoder.encode(pending.join('')));
    pending = [];
    pendingChars = 0;
  };
  let sliceStart = performance.now();
  for (const part of parts) {
    pending.push(part);
    pendingChars += part.length;
    if (pendingChars >= ENCODE_CHARS) encodePending();
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldNow();
      sliceStart = performance.now();
    }
  }
  encodePending();
  return new Blob(pieces, { type: 'application/json' });
}

/** The parts of a JSON array whose items are given as JSON texts: `[`, the items comma-separated, `]`. */
export function* jsonArrayParts<T>(items: Iterable<T>, textOf: (item: T) => string): Generator<string> {
  yield '[';
  let first = true;
  for (const item of items) {
    yield first ? textOf(item) : `,${textOf(item)}`;
    first = false;
  }
  yield ']';
}
