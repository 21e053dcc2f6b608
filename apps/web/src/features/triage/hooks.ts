import { triage, type TriageGroup } from '@portal/contract/triage';
import { useMemo } from 'react';
import { useStore } from '../../lib/external-store.ts';
import { useBatch, useWorks } from '../batch/index.ts';
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

/** The works the order table shows while a group is chosen; null: every work. */
export function useTriageFilter(): ReadonlySet<string> | null {
  const group = useChosenGroup();
  return useMemo(() => (group ? new Set(group.workUuids) : null), [group]);
}
