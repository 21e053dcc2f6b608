import { triage, type TriageGroup } from '@portal/contract/triage';
import { useCallback, useMemo } from 'react';
import type { Batch } from '../batch/index.ts';
import { useStore } from '../../lib/external-store.ts';
import { useBatch, useWorks, type WorkRow, type WorksState } from '../batch/index.ts';
import { triageStateOf } from './state.ts';

const sameList = <T>(a: readonly T[] | null, b: readonly T[] | null) =>
  a === b || (a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]));

const triaged = new WeakMap<readonly WorkRow[], TriageGroup[]>();
let last: TriageGroup[] = [];

/**
 * The triage of the batch's rows, worked out once per rows array however many parts of the page ask
 * (the panel, the filter bar, the table's filter). A row's issues are remembered per check answer
 * (contract triage.ts), so a change costs one walk over the rows; a group whose files did not change
 * keeps its object, so its row in the panel (memo) does not render again.
 */
export function triageOf(rows: readonly WorkRow[]): TriageGroup[] {
  let groups = triaged.get(rows);
  if (!groups) {
    const before = new Map(last.map((g) => [g.key, g]));
    groups = triage(rows).map((g) => {
      const old = before.get(g.key);
      return old && sameList(old.files, g.files) && sameList(old.workUuids, g.workUuids) ? old : g;
    });
    triaged.set(rows, groups);
    last = groups;
  }
  return groups;
}

const selectGroups = (s: WorksState) => triageOf(s.rows);

/** The triage of the page's batch, derived from its rows; re-renders only when a group changes. */
export function useTriageGroups(): TriageGroup[] {
  return useWorks(selectGroups, sameList);
}

/** The chosen group (null: none, or it has emptied). */
export function useChosenGroup(): TriageGroup | null {
  const batch = useBatch();
  const key = useStore(triageStateOf(batch), (s) => s.chosenKey);
  const groups = useTriageGroups();
  return key === null ? null : (groups.find((g) => g.key === key) ?? null);
}

const shown = new WeakMap<Batch, { key: string; uuids: ReadonlySet<string> }>();

/**
 * The works shown for the chosen group `key` whose works are now `groupUuids`: they, and those shown
 * for it before (a fixed work stays in the filtered table, showing its new state, until the group is
 * left). The same set while nothing joins, so the table does not render again when works leave the
 * group; the table leaves out works that are no longer rows (deleted).
 */
export function shownForGroup(batch: Batch, key: string, groupUuids: readonly string[]): ReadonlySet<string> {
  const before = shown.get(batch);
  const kept = before?.key === key ? before.uuids : null;
  if (kept && groupUuids.every((u) => kept.has(u))) return kept;
  const uuids = new Set(kept ?? []);
  for (const u of groupUuids) uuids.add(u);
  shown.set(batch, { key, uuids });
  return uuids;
}

/**
 * The works the order table shows while a group is chosen (`shownForGroup`); null: every work. It
 * re-renders its component only when works join the group, not on every change to a row, nor when
 * checks and fixes take works out of it (nor at all with no group chosen).
 */
export function useTriageFilter(): ReadonlySet<string> | null {
  const batch = useBatch();
  const key = useStore(triageStateOf(batch), (s) => s.chosenKey);
  const select = useCallback((s: WorksState) => (key === null ? null : (triageOf(s.rows).find((g) => g.key === key)?.workUuids ?? null)), [key]);
  const uuids = useWorks(select, sameList);
  return useMemo(() => (key === null || uuids === null ? null : shownForGroup(batch, key, uuids)), [batch, key, uuids]);
}
