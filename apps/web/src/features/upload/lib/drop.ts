/**
 * Files and folders dropped on the page, with their relative paths, through the File and Directory
 * Entries API (`DataTransferItem.webkitGetAsEntry`). Keep in mind:
 * - the entries must be taken while the drop event runs: after the first `await` the DataTransfer
 *   is emptied, so `entriesOf` is synchronous and the reading (`readDropped`) comes after;
 * - `readEntries` answers a directory in pieces (Chromium: at most 100 entries per call) and
 *   signals the end with an empty array, so it is called until then;
 * - each file entry's `file()` is a round trip to the browser, and Chromium's handling of each
 *   answer takes ≈ 0.5 ms of the page's main thread: a folder of 10,000 photos takes seconds.
 *   FILES_AT_ONCE are asked at a time, each from a task of its own (asked from the previous
 *   answer's callback, Chromium handled the answers of a whole folder in one task of 6 s);
 * - folders the system leaves behind (`__MACOSX`, dot-folders) are not even opened.
 */
import { mapPooled } from '../../../lib/pool.ts';
import { isSystemFile, type PickedFile } from './pick.ts';

export interface DroppedEntries {
  entries: FileSystemEntry[];
  /** Files of a browser without entries support. */
  plainFiles: File[];
}

export function entriesOf(dataTransfer: DataTransfer): DroppedEntries {
  const entries: FileSystemEntry[] = [];
  const plainFiles: File[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) plainFiles.push(file);
    }
  }
  if (entries.length === 0 && plainFiles.length === 0) plainFiles.push(...Array.from(dataTransfer.files));
  return { entries, plainFiles };
}

const isFile = (e: FileSystemEntry): e is FileSystemFileEntry => e.isFile;
const isDirectory = (e: FileSystemEntry): e is FileSystemDirectoryEntry => e.isDirectory;

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function childrenOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

const relativeOf = (entry: FileSystemEntry) => entry.fullPath.replace(/^\/+/, '') || entry.name;

const FILES_AT_ONCE = 8;

/**
 * `fileOf` of every item, FILES_AT_ONCE asked at a time, each from a task of its own (see above):
 * the answers of a whole folder are then not handled in one task. In the items' order.
 */
export function filesInTasks<T>(items: readonly T[], fileOf: (item: T) => Promise<File>): Promise<File[]> {
  return mapPooled(items, FILES_AT_ONCE, fileOf, { taskEach: true });
}

/** Every file below the dropped entries, depth first, with its path relative to the drop. */
export async function readDropped({ entries, plainFiles }: DroppedEntries): Promise<PickedFile[]> {
  const fileEntries: FileSystemFileEntry[] = [];
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (isSystemFile(relativeOf(entry))) return;
    if (isFile(entry)) fileEntries.push(entry);
    else if (isDirectory(entry)) {
      for (const child of await childrenOf(entry)) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);

  const files = await filesInTasks(fileEntries, fileOf);
  return [
    ...plainFiles.map((file) => ({ file, relativePath: file.name })),
    ...fileEntries.map((entry, i) => ({ file: files[i] as File, relativePath: relativeOf(entry) })),
  ];
}
