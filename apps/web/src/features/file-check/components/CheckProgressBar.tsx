import { CloseOutlined } from '@ant-design/icons';
import { Button, Flex, Progress, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { shallowEqual, useStore } from '../../../lib/external-store.ts';
import { useBatch, useWorks, type WorksState } from '../../batch/index.ts';
import { checkFlowOf, checkLineText, checkStandingOf } from '../check-works.ts';

/**
 * The one progress bar of a check of several works (选择产品 on many rows): 正在校验 n/300 个作品 while
 * it runs, then how its works stand until the customer closes it, the next check starts or a work it does
 * not count is checked (check-works.ts): a work fixed, accepted or deleted since is counted as it is now,
 * not as the run left it.
 */
export function CheckProgressBar() {
  const batch = useBatch();
  const progress = useStore(checkFlowOf(batch).progressStore, (p) => p);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const { uuids } = progress;
  const select = useCallback((s: WorksState) => checkStandingOf(uuids, s), [uuids]);
  const now = useWorks(select, shallowEqual);
  useEffect(() => {
    if (progress.running) setClosedAt(null);
  }, [progress.running]);
  if (progress.total === 0 || (!progress.running && (closedAt !== null || now.total === 0))) return null;
  const percent = Math.floor((progress.done / progress.total) * 100);
  const failed = progress.running ? progress.failed : now.failed;
  const text = checkLineText(progress, now);
  return (
    <Flex align="center" gap={12} data-testid="check-progress" role="status" aria-live="polite">
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>{text}</Typography.Text>
      <Progress
        percent={percent}
        status={progress.running ? 'active' : failed ? 'exception' : 'success'}
        aria-label="校验进度"
        style={{ flex: 1, margin: 0 }}
      />
      {!progress.running && (
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label="关闭校验进度" onClick={() => setClosedAt(Date.now())} />
      )}
    </Flex>
  );
}
