/**
 * The triage's own state per batch: the group the order table is filtered to (by its key, so it stays
 * chosen while checks, fixes and deletions change the group) and a request to bring the triage into view.
 */
import { createStore, type Store } from '../../lib/external-store.ts';
import { perBatch, type Batch } from '../batch/index.ts';

export interface TriageState {
  /** The chosen group's key ('尺寸偏小 2–5 mm'); null: the table shows every work. */
  chosenKey: string | null;
  /** Bumped to scroll the triage into view (a check of many works has finished). */
  reveal: number;
}

export const triageStateOf: (batch: Batch) => Store<TriageState> = perBatch(() => createStore<TriageState>({ chosenKey: null, reveal: 0 }, { notify: 'sync' }));

/** Filters the order table to a group's works, or (null) shows them all again. */
export function chooseTriageGroup(batch: Batch, key: string | null): void {
  triageStateOf(batch).setState((s) => (s.chosenKey === key ? s : { ...s, chosenKey: key }));
}

/** Brings the triage into view: a check of several works ends there. */
export function revealTriage(batch: Batch): void {
  triageStateOf(batch).setState((s) => ({ ...s, reveal: s.reveal + 1 }));
}
