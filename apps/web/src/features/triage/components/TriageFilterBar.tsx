import { Alert, Button } from 'antd';
import { useCallback } from 'react';
import { rowByUuid, useBatch, useWorks, type WorksState } from '../../batch/index.ts';
import { useChosenGroup, useTriageFilter } from '../hooks.ts';
import { chooseTriageGroup } from '../state.ts';

/** Over the order table while it is filtered to a group: what it shows, and the way back. */
export function TriageFilterBar() {
  const batch = useBatch();
  const group = useChosenGroup();
  const shown = useTriageFilter();
  // Works fixed since the group was chosen stay in the table (useTriageFilter): say how many.
  const left = useWorks(
    useCallback(
      (s: WorksState) => {
        if (!shown || !group) return 0;
        const inGroup = new Set(group.workUuids);
        let n = 0;
        for (const uuid of shown) if (!inGroup.has(uuid) && rowByUuid(s, uuid)) n++;
        return n;
      },
      [shown, group],
    ),
  );
  if (!group) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="triage-filter"
      message={`仅显示「${group.title}」的${group.workUuids.length}个作品${left > 0 ? `，及${left}个已移出此组的作品` : ''}`}
      action={
        <Button size="small" onClick={() => chooseTriageGroup(batch, null)}>
          显示全部作品
        </Button>
      }
    />
  );
}
