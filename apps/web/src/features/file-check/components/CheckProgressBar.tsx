import { CloseOutlined } from '@ant-design/icons';
import { Button, Flex, Progress, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { shallowEqual, useStore } from '../../../lib/external-store.ts';
import { rowByUuid, useBatch, useWorks, type WorksState } from '../../batch/index.ts';
import { checkFlowOf } from '../check-works.ts';

/**
 * The one progress bar of a check of several works (选择产品 on many rows): 正在校验 n/300 个作品 while
 * it runs, then how its works stand until the customer closes it or the next check starts: a work
 * fixed, accepted or deleted since is counted as it is now, not as the run left it.
 */
export function CheckProgressBar() {
  const batch = useBatch();
  const progress = useStore(checkFlowOf(batch).progressStore, (p) => p);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const { uuids } = progress;
  const select = useCallback((s: WorksState) => {
    const rows = uuids.map((u) => rowByUuid(s, u)).filter((r) => r !== undefined);
    return { total: rows.length, failed: rows.filter((r) => r.state === 'abnormal').length, warned: rows.filter((r) => r.state === 'dpiAbnormal').length };
  }, [uuids]);
  const now = useWorks(select, shallowEqual);
  useEffect(() => {
    if (progress.running) setClosedAt(null);
  }, [progress.running]);
  if (progress.total === 0 || (!progress.running && (closedAt !== null || now.total === 0))) return null;
  const percent = Math.floor((progress.done / progress.total) * 100);
  const failed = progress.running ? progress.failed : now.failed;
  // 分辨率异常 is named beside 未通过: 全部通过 above a triage listing 分辨率不足 read as a contradiction (LAN probe).
  const standing = [failed ? `${failed}个未通过` : '', now.warned ? `${now.warned}个分辨率异常` : ''].filter(Boolean).join('，');
  const text = progress.running
    ? `正在校验 ${progress.done}/${progress.total} 个作品`
    : `校验完成：共${now.total}个作品，${standing || '全部通过'}`;
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
