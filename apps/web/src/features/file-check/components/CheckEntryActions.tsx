import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useAccount } from '../../auth/index.ts';
import { useBatch, type CheckEntry } from '../../batch/index.ts';
import { checkFlowOf } from '../check-works.ts';
import { openFileDetail } from '../dialogs.ts';

/** 查看详情 and 重新校验 for a work's entry in error or dpiAbnormal; 确认使用 for dpiAbnormal. */
export function CheckEntryActions({ entry }: { entry: CheckEntry }) {
  const customerHubId = useAccount().data?.customerHubId;
  const { confirmUse, recheckWorks } = checkFlowOf(useBatch());
  const workUuid = entry.workUuid;
  if (!workUuid || (entry.status !== 'error' && entry.status !== 'dpiAbnormal')) return null;
  return (
    <>
      <Button type="link" size="small" onClick={() => openFileDetail(workUuid)}>
        查看详情
      </Button>
      <Button
        type="link"
        size="small"
        disabled={customerHubId === undefined}
        onClick={() => customerHubId !== undefined && void recheckWorks([workUuid], customerHubId)}
      >
        重新校验
      </Button>
      {entry.status === 'dpiAbnormal' && (
        <Button type="link" size="small" onClick={() => confirmUse(workUuid)}>
          确认使用
        </Button>
      )}
    </>
  );
}

/** For UploadArea's `renderEntryActions`. */
export const renderCheckEntryActions = (entry: CheckEntry): ReactNode => <CheckEntryActions entry={entry} />;
