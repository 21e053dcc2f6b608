/**
 * The state of one batch upload order: its works (the order table's rows), the check entries of the
 * upload list, the uploads in flight and the preflight of picked files, with the named commands that are the only writers of it.
 * A batch is made by `BatchProvider` when the page mounts (never at import time), so a page and a
 * test each get their own; features reach it with `useBatch()` and hand it to code outside React.
 */
import { createCheckEntries } from './check-entries.ts';
import { createPreflight } from './preflight.ts';
import { createUploads } from './uploads.ts';
import { createWorks } from './works.ts';

export function createBatch() {
  return { ...createWorks(), ...createCheckEntries(), ...createUploads(), ...createPreflight() };
}

export type Batch = ReturnType<typeof createBatch>;

/**
 * One `T` per batch, made on first use and forgotten with the batch: the flows (upload, check) that
 * work on a batch from outside React.
 */
export function perBatch<T>(create: (batch: Batch) => T): (batch: Batch) => T {
  const made = new WeakMap<Batch, T>();
  return (batch) => {
    let value = made.get(batch);
    if (value === undefined) {
      value = create(batch);
      made.set(batch, value);
    }
    return value;
  };
}
