import { Alert, Button } from 'antd';
import { useBatch } from '../../batch/index.ts';
import { useChosenGroup } from '../hooks.ts';
import { chooseTriageGroup } from '../state.ts';

/** Over the order table while it is filtered to a group: what it shows, and the way back. */
export function TriageFilterBar() {
  const batch = useBatch();
  const group = useChosenGroup();
  if (!group) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="triage-filter"
      message={`仅显示「${group.title}」的${group.workUuids.length}个作品`}
      action={
        <Button size="small" onClick={() => chooseTriageGroup(batch, null)}>
          显示全部作品
        </Button>
      }
    />
  );
}
