import { Readable } from 'node:stream';
import type { FileStore } from '../storage/file-store.ts';

/**
 * Preview copies: for a PDF whose page tree is flat and large, a copy whose tree is balanced, made once
 * when the file is stored (its upload's completion, or a zip's extraction) and read only by the preview
 * renderer (pdf.js reads every kid of a flat root when it opens a document: media/pdf.ts
 * balancedTreeUpdate). Keep in mind:
 * - the customer's file is never written: the copy is its bytes followed by an incremental update;
 * - a copy is named after the version of the file it was made from (size and modification time), so a
 *   file stored again under the same path never meets the copy of its predecessor, even one finished late;
 * - it lives under the file's .previews/ folder, which goes with the file (files.remove) and which no
 *   listing of the customer's files shows.
 */
type Version = { size: number; mtimeMs: number };

/** Everything under .previews/ that belongs to the stored file or folder `rel`: its previews and copies. */
export const previewsOf = (rel: string) => [`.previews/${rel}.jpg`, `.previews/${rel}`];

/** Removes the previews and copies of `rel` (a file whose bytes changed or went). */
export const removePreviews = (store: FileStore, hubId: number, rel: string) => Promise.all(previewsOf(rel).map((p) => store.remove(hubId, p))).then(() => {});

/** The copy of `rel` made from this version of the file. */
export const previewCopyPath = (rel: string, file: Version) => `.previews/${rel}/pages-${file.size}-${Math.floor(file.mtimeMs)}.pdf`;

/**
 * Writes the copy of the stored file `rel`: its bytes, then `update`. Answers the copy's bytes on disk,
 * or null when the file changed meanwhile (the copy is then removed: it belongs to no version).
 */
export async function writePreviewCopy(store: FileStore, hubId: number, rel: string, update: Uint8Array): Promise<number | null> {
  const before = await store.stat(hubId, rel);
  if (!before || before.isDirectory) return null;
  const target = previewCopyPath(rel, before);
  // The previews and copy of the file's earlier version, if any, are of no use any more.
  await store.remove(hubId, `.previews/${rel}`);
  async function* bytes() {
    yield* store.read(hubId, rel);
    yield update;
  }
  const size = await store.write(hubId, target, Readable.from(bytes()));
  const after = await store.stat(hubId, rel);
  if (!after || after.size !== before.size || after.mtimeMs !== before.mtimeMs || size !== before.size + update.length) {
    await store.remove(hubId, target);
    return null;
  }
  return size;
}

/** The copy of this version of `rel` to render its pages from, if one was made. */
export async function previewCopyOf(store: FileStore, hubId: number, rel: string, file: Version): Promise<string | null> {
  const copy = previewCopyPath(rel, file);
  const s = await store.stat(hubId, copy);
  return s && !s.isDirectory ? copy : null;
}
