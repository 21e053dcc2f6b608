/**
 * The file-check entries of the file preview area (../shared/spec/product-spec.md §3 "File check entry", §4 statuses).
 * The upload adds one entry per top-level item (start → success, or failure when the upload or
 * the parse fails); the file check adds entries for works (error, dpiAbnormal) with `workUuid`
 * and the check's answer in `messageDetail`.
 *
 * Rules the actions keep:
 * - an entry in `start` cannot be removed by the customer (`removableIds` leaves it out);
 * - `onCheckEntriesRemoved` listeners hear about every removal, so the feature that made an
 *   entry can undo what it stands for (the file check reverts its work to unmatch).
 */
import type { CheckEntryStatus } from '@portal/contract/enums';
import { createStore, type Store } from '../../lib/external-store.ts';

/** What an entry in `start` is doing now. */
export type CheckEntryPhase = 'uploading' | 'parsing' | 'checking';

/**
 * What the entry's retry action redoes; 'pick': the files must be picked again (a restored draft's unfinished
 * upload); 'skip': nothing to send again (the server refused the files), a folder may go on without them.
 */
export type CheckEntryRetry = 'upload' | 'parse' | 'check' | 'pick' | 'skip';

export interface CheckEntry {
  id: string;
  articleName: string;
  fileName: string;
  /** The stored item: `upload/<folderId>/<name>` for uploads, the work's filePath for checks. */
  filePath: string;
  status: CheckEntryStatus;
  /** The customer-facing text: the failure, the check error, or a success note. */
  message?: string;
  /** The file check's answer (message wrapper of ../shared/spec/product-spec.md §3), for the detail dialog. */
  messageDetail?: unknown;
  /** Set by the file check: the row of the order table this entry is about. */
  workUuid?: string;
  /** Set by the upload: its item in the upload store. */
  uploadItemKey?: string;
  fileSelectIndex?: number;
  phase?: CheckEntryPhase;
  /** Progress of a long task (the parse of a zip or a big folder). */
  taskProgress?: { done: number; total: number };
  retry?: CheckEntryRetry;
  /** Extra lines under the message, e.g. the files that failed. */
  details?: readonly string[];
  createdAt: number;
}

export interface CheckEntriesState {
  ids: readonly string[];
  byId: Readonly<Record<string, CheckEntry>>;
}

export type NewCheckEntry = Omit<CheckEntry, 'createdAt'> & { createdAt?: number };
export type RemovedListener = (removed: readonly CheckEntry[]) => void;

/** The check entries of one batch and their commands, the only writers of their state. */
export function createCheckEntries() {
  const store: Store<CheckEntriesState> = createStore<CheckEntriesState>({ ids: [], byId: {} });
  const removedListeners = new Set<RemovedListener>();

  /** Adds entries at the end; an entry whose id exists replaces it in place. */
  function addCheckEntries(entries: readonly NewCheckEntry[]): void {
    if (entries.length === 0) return;
    store.setState((s) => {
      const byId = { ...s.byId };
      const ids = [...s.ids];
      const now = Date.now();
      for (const entry of entries) {
        if (!byId[entry.id]) ids.push(entry.id);
        byId[entry.id] = { ...entry, createdAt: entry.createdAt ?? now };
      }
      return { ids, byId };
    });
  }

  /** Changes one entry; fields set to undefined in the patch are cleared. */
  function updateCheckEntry(id: string, patch: Partial<Omit<CheckEntry, 'id'>>): void {
    store.setState((s) => {
      const entry = s.byId[id];
      if (!entry) return s;
      return { ...s, byId: { ...s.byId, [id]: { ...entry, ...patch } } };
    });
  }

  /** Hear about removed entries (by the customer or automatically); returns the unsubscribe. */
  function onCheckEntriesRemoved(listener: RemovedListener): () => void {
    removedListeners.add(listener);
    return () => removedListeners.delete(listener);
  }

  /** Removes entries whatever their status (callers check `removableIds` for the customer's actions). */
  function removeCheckEntries(ids: readonly string[]): CheckEntry[] {
    const state = store.getState();
    const doomed = new Set(ids.filter((id) => state.byId[id]));
    if (doomed.size === 0) return [];
    const removed = [...doomed].map((id) => state.byId[id] as CheckEntry);
    const byId = { ...state.byId };
    for (const id of doomed) delete byId[id];
    store.setState({ ids: state.ids.filter((id) => !doomed.has(id)), byId });
    for (const listener of removedListeners) listener(removed);
    return removed;
  }

  return { checkEntriesStore: store, addCheckEntries, updateCheckEntry, onCheckEntriesRemoved, removeCheckEntries };
}

export type CheckEntriesCommands = ReturnType<typeof createCheckEntries>;

// --- selectors

export const isProblemStatus = (status: CheckEntryStatus): boolean =>
  status === 'error' || status === 'dpiAbnormal' || status === 'failure';

/** The entries the customer may delete: every one not in `start`. */
export const removableIds = (s: CheckEntriesState): string[] => s.ids.filter((id) => s.byId[id]?.status !== 'start');

/** ../shared/spec/product-spec.md §5 rule 1: entries still to be dealt with block the order (a success leaves by itself). */
export const selectHasPendingEntries = (s: CheckEntriesState): boolean => s.ids.some((id) => s.byId[id]?.status !== 'success');

export const selectHasProblems = (s: CheckEntriesState): boolean =>
  s.ids.some((id) => {
    const entry = s.byId[id];
    return entry !== undefined && isProblemStatus(entry.status);
  });
