import { triage, type TriageGroup } from '@portal/contract/triage';
import { useCallback, useMemo } from 'react';
import { useStore } from '../../lib/external-store.ts';
import { useBatch, useWorks, type WorksState } from '../batch/index.ts';
import { triageStateOf } from './state.ts';

/**
 * The triage of the page's batch, derived from its rows: a row's issues are worked out once per check
 * answer (contract triage.ts remembers them by the answer object), so a change to one of 2,000 rows
 * costs a walk over the rows, not a new classification of every file.
 */
export function useTriageGroups(): TriageGroup[] {
  const rows = useWorks((s) => s.rows);
  return useMemo(() => triage(rows), [rows]);
}

/** The chosen group (null: none, or it has emptied). */
export function useChosenGroup(): TriageGroup | null {
  const batch = useBatch();
  const key = useStore(triageStateOf(batch), (s) => s.chosenKey);
  const groups = useTriageGroups();
  return key === null ? null : (groups.find((g) => g.key === key) ?? null);
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === b || (a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]));

/**
 * The works the order table shows while a group is chosen; null: every work. The page calls it: it
 * re-renders only when the group's works change, not on every change to a row (nor at all with no group chosen).
 */
export function useTriageFilter(): ReadonlySet<string> | null {
  const batch = useBatch();
  const key = useStore(triageStateOf(batch), (s) => s.chosenKey);
  const select = useCallback((s: WorksState) => (key === null ? null : (triage(s.rows).find((g) => g.key === key)?.workUuids ?? null)), [key]);
  const uuids = useWorks(select, sameList);
  return useMemo(() => (uuids ? new Set(uuids) : null), [uuids]);
}
