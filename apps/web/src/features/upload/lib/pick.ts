/**
 * What happens to the files a customer picks or drops, before any byte is sent (../shared/spec/product-spec.md §5
 * upload rules, ../shared/spec/decisions.md §4 ignored files). Pure functions: no DOM beyond the File objects.
 */
import { LIMITS } from '@portal/contract/enums';
import { SLICE_MS, yieldToMain } from '../../../lib/yield.ts';
import { naturalCompare } from './natural-order.ts';

/** A picked file and its path as picked: `photo.jpg`, or `Book1/sub/p01.jpg` inside a folder. */
export interface PickedFile {
  file: File;
  relativePath: string;
  /**
   * Kept alive until the file is sent, then let go: a directory picker's file handle
   * (lib/directory.ts says why).
   */
  holds?: unknown;
}

/** One top-level file, or one top-level folder with everything below it: parsed as one call. */
export interface UploadItem {
  /** The top-level name: `photo.jpg`, `batch.zip` or `Book1`. */
  name: string;
  isFolder: boolean;
  files: PickedFile[];
}

const SYSTEM_NAMES = new Set(['thumbs.db', 'desktop.ini', '__macosx']);

/** Files the operating system leaves behind: skipped without a word, as the server does. */
export function isSystemFile(relativePath: string): boolean {
  return relativePath
    .split('/')
    .some((segment) => segment.startsWith('.') || SYSTEM_NAMES.has(segment.toLowerCase()));
}

/** Lower-case extension without the dot, '' when there is none. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isAcceptedExtension(ext: string): boolean {
  return (LIMITS.acceptedExtensions as readonly string[]).includes(ext);
}

/** Length as the server counts it: in characters (code points), not UTF-16 units or bytes. */
export function pathLength(path: string): number {
  return [...path].length;
}

export function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

export interface Screened {
  accepted: PickedFile[];
  /** Not .zip/.pdf/.png/.jpg/.jpeg: MSG.wrongFileType. */
  wrongType: PickedFile[];
  /** Relative path over LIMITS.maxPathLength: MSG.pathTooLong. */
  tooLong: PickedFile[];
  /** Zero bytes: nothing to print, and the server refuses it. */
  empty: PickedFile[];
}

/** Sorts a pick into what is uploaded and what is dropped (system files vanish silently). */
export function screenFiles(files: readonly PickedFile[]): Screened {
  const out: Screened = { accepted: [], wrongType: [], tooLong: [], empty: [] };
  for (const picked of files) {
    const path = picked.relativePath;
    if (!path || isSystemFile(path)) continue;
    if (!isAcceptedExtension(extensionOf(path))) out.wrongType.push(picked);
    else if (pathLength(path) > LIMITS.maxPathLength) out.tooLong.push(picked);
    else if (picked.file.size === 0) out.empty.push(picked);
    else out.accepted.push(picked);
  }
  return out;
}

/**
 * Groups files by their first path segment; the items in natural order by name (DSC_0001 before
 * DSC_0003 before DSC_0010, as the server orders files), each item's files as they were picked.
 * The order of a pick is the order of its upload, of its entries and of its rows.
 */
export function groupByTopLevel(files: readonly PickedFile[]): UploadItem[] {
  const items = new Map<string, UploadItem>();
  for (const picked of files) {
    const slash = picked.relativePath.indexOf('/');
    const name = slash < 0 ? picked.relativePath : picked.relativePath.slice(0, slash);
    let item = items.get(name);
    if (!item) {
      item = { name, isFolder: slash >= 0, files: [] };
      items.set(name, item);
    }
    item.files.push(picked);
  }
  return [...items.values()].sort((a, b) => naturalCompare(a.name, b.name));
}

/** The name a customer recognises an item by: the folder, or the file without its extension. */
export function itemArticleName(item: Pick<UploadItem, 'name' | 'isFolder'>): string {
  return item.isFolder ? item.name : stripExtension(item.name);
}

/** Files from an `<input type=file>`: webkitdirectory inputs give each file's path below the picked folder. */
export function pickedFromFileList(list: FileList | readonly File[]): PickedFile[] {
  return Array.from(list, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/**
 * Reads every file's `size` once, a slice at a time, yielding to the page in between. Chromium
 * gives a file picked through `<input type=file>` its size with a synchronous call to the browser
 * process the first time `size` is read (≈ 0.3 ms; then it is kept): the screening of a folder of
 * 10,000 photos read them all in one task and froze the page for seconds
 * (bench/benchmarks/browser-pick.ts). Files read from dropped entries know their size already.
 */
export async function readSizes(files: readonly PickedFile[]): Promise<void> {
  let sliceStart = performance.now();
  for (const picked of files) {
    void picked.file.size;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToMain();
      sliceStart = performance.now();
    }
  }
}
