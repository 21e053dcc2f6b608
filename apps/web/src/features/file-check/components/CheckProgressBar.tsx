import { CloseOutlined } from '@ant-design/icons';
import { Button, Flex, Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useStore } from '../../../lib/external-store.ts';
import { useBatch } from '../../batch/index.ts';
import { checkFlowOf } from '../check-works.ts';

/**
 * The one progress bar of a check of several works (选择产品 on many rows): 正在校验 n/300 个作品 while
 * it runs, then what came of it until the customer closes it or the next check starts.
 */
export function CheckProgressBar() {
  const batch = useBatch();
  const progress = useStore(checkFlowOf(batch).progressStore, (p) => p);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  useEffect(() => {
    if (progress.running) setClosedAt(null);
  }, [progress.running]);
  if (progress.total === 0 || (!progress.running && closedAt !== null)) return null;
  const percent = Math.floor((progress.done / progress.total) * 100);
  const text = progress.running
    ? `正在校验 ${progress.done}/${progress.total} 个作品`
    : `校验完成：共${progress.total}个作品，${progress.failed ? `${progress.failed}个未通过` : '全部通过'}`;
  return (
    <Flex align="center" gap={12} data-testid="check-progress" role="status" aria-live="polite">
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>{text}</Typography.Text>
      <Progress
        percent={percent}
        status={progress.running ? 'active' : progress.failed ? 'exception' : 'success'}
        aria-label="校验进度"
        style={{ flex: 1, margin: 0 }}
      />
      {!progress.running && (
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label="关闭校验进度" onClick={() => setClosedAt(Date.now())} />
      )}
    </Flex>
  );
}
