/**
 * The upload state of one batch: every file being uploaded, its progress and state, the per-item and overall
 * sums, and the notices about files the parse did not recognise. It lives outside React
 * (lib/external-store.ts): the uploader writes on every chunk, components subscribe to slices
 * with `useUploadState(selector)` (features/batch) and render at most five times a second (lib/paced.ts).
 *
 * Invariants (kept by the actions below, the only writers):
 * - `items[k]` sums exactly the files whose `itemKey` is k, and `overall` sums the files of the items
 *   `inRound`, plus `retired`: the items forgotten whole (sent and parsed, their entry gone) while other
 *   files were still queued or being sent, so that 正在上传 n/N counts the whole round and never steps
 *   back; they leave the sums when the next pick starts a round;
 * - a round is what is sent from a pick made while nothing was being sent until nothing is: the items of
 *   earlier rounds (a file that failed, left in the list) are not in it, and 正在上传 n/N does not count
 *   them (LAN walk, 2026-11-30: 正在上传 10/34 个文件，2 个失败 for a folder of 30 clean files). One of them
 *   whose file is sent again joins the round;
 * - `files` and `items` are tables the actions update in place: an entry is replaced by a new
 *   object when it changes (never changed itself), and the state around the tables is a new object
 *   on every change, so selectors of an entry and subscribers work as with immutable state.
 *   Copying a table of 10,000 files on every chunk answer cost milliseconds per answer and kept
 *   the page busy for as long as such a folder uploaded (bench/benchmarks/browser-pick.ts);
 * - a file counts in `filesDone` xor `filesFailed` xor neither (queued or uploading);
 * - `active` lists the files whose status is 'uploading', in the order they started.
 */
import { createStore, type Store } from '../../lib/external-store.ts';
import type { ChunkDone, UnsupportedFile } from '@portal/contract/api';

export type UploadFileStatus = 'queued' | 'uploading' | 'done' | 'failed';

export interface UploadFileState {
  /** Also the `identifier` sent with each chunk. */
  id: string;
  /** The folderId of the pick or drop. */
  batchId: string;
  itemKey: string;
  relativePath: string;
  size: number;
  /** The picked file's modification time: with the path and size, how a re-pick finds it again (features/draft). */
  lastModified?: number;
  chunkTotal: number;
  /** Bytes sent: acknowledged chunks and what has gone of the chunks in flight (uploader.ts). */
  bytesDone: number;
  status: UploadFileStatus;
  /** Why the file failed, for the customer. */
  error?: string;
  /** The server refused the file (a 4xx with its reason: damaged, encrypted, of another type): sending it again cannot help. */
  refused?: boolean;
  /** The answer of the chunk that completed the file (stored path, signed URLs, width/height/dpi or pages). */
  result?: ChunkDone;
}

export interface Sums {
  filesTotal: number;
  filesDone: number;
  filesFailed: number;
  bytesTotal: number;
  bytesDone: number;
}

/** A top-level file or folder of a pick, parsed as one call once all its files are uploaded. */
export interface UploadItemState extends Sums {
  /** `<folderId>/<name>`. */
  key: string;
  batchId: string;
  name: string;
  isFolder: boolean;
  /** `upload/<folderId>/<name>`: what the parse call and deleteFile take. */
  filePath: string;
  fileIds: readonly string[];
  /** Its files count in `overall`: false for an item of an earlier round whose files have all settled. */
  inRound: boolean;
}

export interface UnsupportedNotice extends UnsupportedFile {
  /** The item whose parse reported it. */
  itemName: string;
}

export interface UploadState {
  files: Readonly<Record<string, UploadFileState>>;
  items: Readonly<Record<string, UploadItemState>>;
  active: readonly string[];
  overall: Sums;
  /** Items forgotten whole during the round, still counted in `overall` until the next round. */
  retired: Sums;
  unsupported: readonly UnsupportedNotice[];
  /**
   * One more each time the notices are cleared (the notice closed, 重置): the notice of the next files left out is a
   * new one. The store tells its listeners at its pace, so a pick right after closing could reach the page with the
   * closed notice's list never seen empty, and the closed notice stayed closed over the new files (e2e upload.test).
   */
  unsupportedRound: number;
  /**
   * Chunk tries pausing before a retry after no answer or a 5xx (features/upload/uploader.ts): while any is, the page
   * says the connection is being retried, not only a bar that stopped (a server restarting: files probe, 2026-12-01).
   */
  retryPauses: number;
}

const emptySums = (): Sums => ({ filesTotal: 0, filesDone: 0, filesFailed: 0, bytesTotal: 0, bytesDone: 0 });

const uploading = (sums: Sums) => sums.filesTotal - sums.filesDone - sums.filesFailed > 0;

/**
 * A pick made while nothing is queued or being sent starts a round: the items forgotten during the last, and the items
 * still listed (every file of theirs settled), leave the sums.
 */
function newRound(s: UploadState): UploadState {
  if (uploading(s.overall) || (s.overall.filesTotal === 0 && s.retired.filesTotal === 0)) return s;
  const items = s.items as Record<string, UploadItemState>;
  for (const [key, item] of Object.entries(items)) if (item.inRound) items[key] = { ...item, inRound: false };
  return { ...s, overall: emptySums(), retired: emptySums() };
}

/** What a file adds to the sums. */
function weight(f: UploadFileState): Sums {
  return {
    filesTotal: 1,
    filesDone: f.status === 'done' ? 1 : 0,
    filesFailed: f.status === 'failed' ? 1 : 0,
    bytesTotal: f.size,
    bytesDone: f.bytesDone,
  };
}

function addSums<T extends Sums>(target: T, delta: Sums, sign: 1 | -1): T {
  return {
    ...target,
    filesTotal: target.filesTotal + sign * delta.filesTotal,
    filesDone: target.filesDone + sign * delta.filesDone,
    filesFailed: target.filesFailed + sign * delta.filesFailed,
    bytesTotal: target.bytesTotal + sign * delta.bytesTotal,
    bytesDone: target.bytesDone + sign * delta.bytesDone,
  };
}

export interface NewUploadItem {
  key: string;
  batchId: string;
  name: string;
  isFolder: boolean;
  filePath: string;
  files: Array<Pick<UploadFileState, 'id' | 'relativePath' | 'size' | 'chunkTotal' | 'lastModified'>>;
}

/** The upload state of one batch and its commands, the only writers of its state. */
export function createUploads() {
  const store: Store<UploadState> = createStore<UploadState>({ files: {}, items: {}, active: [], overall: emptySums(), retired: emptySums(), unsupported: [], unsupportedRound: 0, retryPauses: 0 });

  /** Adds the items of a pick with all their files queued. */
  function addUploadItems(newItems: readonly NewUploadItem[]): void {
    store.setState((last) => {
      const s = newRound(last);
      const { files, items } = s as { files: Record<string, UploadFileState>; items: Record<string, UploadItemState> };
      let overall = s.overall;
      for (const item of newItems) {
        let bytesTotal = 0;
        for (const f of item.files) {
          files[f.id] = { ...f, batchId: item.batchId, itemKey: item.key, bytesDone: 0, status: 'queued' };
          bytesTotal += f.size;
        }
        const sums: Sums = { ...emptySums(), filesTotal: item.files.length, bytesTotal };
        items[item.key] = {
          key: item.key,
          batchId: item.batchId,
          name: item.name,
          isFolder: item.isFolder,
          filePath: item.filePath,
          fileIds: item.files.map((f) => f.id),
          inRound: true,
          ...sums,
        };
        overall = addSums(overall, sums, 1);
      }
      return { ...s, overall };
    });
  }

  /** Changes one file and keeps its item's and the overall sums in step. */
  function patchUploadFile(id: string, patch: Partial<Omit<UploadFileState, 'id' | 'batchId' | 'itemKey'>>): void {
    store.setState((last) => {
      const before = last.files[id];
      if (!before) return last;
      const after: UploadFileState = { ...before, ...patch };
      const settled = (f: UploadFileState) => f.status === 'done' || f.status === 'failed';
      // A settled file sent again: a round of its own when nothing else is being sent, and its item joins the round.
      const sentAgain = settled(before) && !settled(after);
      const s = sentAgain ? newRound(last) : last;
      const { files, items } = s as { files: Record<string, UploadFileState>; items: Record<string, UploadItemState> };
      const item = items[before.itemKey];
      const delta = <T extends Sums>(sums: T): T => addSums(addSums(sums, weight(before), -1), weight(after), 1);
      let active = s.active;
      if (before.status !== 'uploading' && after.status === 'uploading') active = [...active, id];
      else if (before.status === 'uploading' && after.status !== 'uploading') active = active.filter((a) => a !== id);
      files[id] = after;
      if (!item) return { ...s, overall: delta(s.overall), active };
      if (!item.inRound && !sentAgain) {
        items[item.key] = delta(item);
        return { ...s, active };
      }
      const overall = item.inRound ? s.overall : addSums(s.overall, item, 1);
      items[item.key] = { ...delta(item), inRound: true };
      return { ...s, overall: delta(overall), active };
    });
  }

  /**
   * The bytes sent of many files at once (the uploader's progress, once per frame), in one change
   * of the state. Only files still being sent take it: a settled file keeps what it settled with.
   */
  function setUploadBytes(values: ReadonlyMap<string, number>): void {
    store.setState((s) => {
      const { files, items } = s as { files: Record<string, UploadFileState>; items: Record<string, UploadItemState> };
      let overall = s.overall;
      let changed = false;
      for (const [id, bytesDone] of values) {
        const before = files[id];
        if (!before || before.status !== 'uploading' || before.bytesDone === bytesDone) continue;
        const delta: Sums = { ...emptySums(), bytesDone: bytesDone - before.bytesDone };
        files[id] = { ...before, bytesDone };
        const item = items[before.itemKey];
        if (item) items[item.key] = addSums(item, delta, 1);
        overall = addSums(overall, delta, 1);
        changed = true;
      }
      return changed ? { ...s, overall } : s;
    });
  }

  /**
   * Forgets items and their files (parsed, or deleted by the customer). An item whose every file was
   * sent stays in the overall sums while others are still being sent (`retired`); any other leaves them at once.
   */
  function removeUploadItems(keys: readonly string[]): void {
    store.setState((s) => {
      const { files, items } = s as { files: Record<string, UploadFileState>; items: Record<string, UploadItemState> };
      const doomed = keys.filter((k) => items[k]);
      if (doomed.length === 0) return s;
      const roundGoesOn = uploading(s.overall);
      let { overall, retired } = s;
      const gone = new Set<string>();
      for (const key of doomed) {
        const item = items[key];
        if (!item) continue;
        const whole = item.filesDone === item.filesTotal;
        if (item.inRound && roundGoesOn && whole) retired = addSums(retired, item, 1);
        for (const id of item.fileIds) {
          const f = files[id];
          if (f && item.inRound && !(roundGoesOn && whole)) overall = addSums(overall, weight(f), -1);
          delete files[id];
          gone.add(id);
        }
        delete items[key];
      }
      const active = s.active.some((id) => gone.has(id)) ? s.active.filter((id) => !gone.has(id)) : s.active;
      return { ...s, overall, retired, active };
    });
  }

  function addUnsupportedNotices(notices: readonly UnsupportedNotice[]): void {
    if (notices.length === 0) return;
    store.setState((s) => ({ ...s, unsupported: [...s.unsupported, ...notices] }));
  }

  function clearUnsupportedNotices(): void {
    store.setState((s) => (s.unsupported.length ? { ...s, unsupported: [], unsupportedRound: s.unsupportedRound + 1 } : s));
  }

  /** One more chunk try pausing before its retry (+1), or one fewer (-1). */
  function countRetryPause(delta: 1 | -1): void {
    store.setState((s) => ({ ...s, retryPauses: Math.max(0, s.retryPauses + delta) }));
  }

  return { uploadStore: store, addUploadItems, patchUploadFile, setUploadBytes, removeUploadItems, addUnsupportedNotices, clearUnsupportedNotices, countRetryPause };
}

export type UploadsCommands = ReturnType<typeof createUploads>;

// --- selectors

/** True while any file is queued or being sent (../shared/spec/product-spec.md §5: 文件上传中 blocks the order). */
export const selectIsUploading = (s: UploadState): boolean => uploading(s.overall);

export const selectOverall = (s: UploadState): Sums => s.overall;

/** True while a chunk waits to be sent again after no answer or a 5xx. */
export const selectRetrying = (s: UploadState): boolean => s.retryPauses > 0;

export const selectItem = (key: string | undefined) => (s: UploadState): UploadItemState | undefined =>
  key === undefined ? undefined : s.items[key];

export function failedFilesOf(s: UploadState, key: string): UploadFileState[] {
  const item = s.items[key];
  if (!item) return [];
  return item.fileIds.map((id) => s.files[id]).filter((f): f is UploadFileState => f?.status === 'failed');
}
