import { fixIdOfPath } from '@portal/contract/bulk-fix';
import { App, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import { useAccount } from '../../auth/index.ts';
import { useBatch } from '../../batch/index.ts';
import { errorMessage } from '../../../lib/http.ts';
import { undoAndTake } from '../after-fix.ts';

/**
 * 撤销修复 for one fixed file, wherever it is shown (文件详情): the work points to the original again and is
 * checked again. The 批量修复 dialog undoes only while it is open; after 完成 this is the way back.
 */
export function UndoFixButton({ filePath, disabled }: { filePath: string; disabled?: boolean }) {
  const { message } = App.useApp();
  const batch = useBatch();
  const customerHubId = useAccount().data?.customerHubId;
  const [busy, setBusy] = useState(false);
  const fixId = fixIdOfPath(filePath);
  if (!fixId) return null;
  const undo = async () => {
    setBusy(true);
    try {
      await undoAndTake(batch, [fixId], customerHubId);
      void message.success('已撤销修复，恢复为原文件');
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popconfirm title="撤销修复？" description="作品将改回原文件并重新校验" okText="撤销" cancelText="取消" onConfirm={() => void undo()}>
      <Button type="link" size="small" loading={busy} disabled={disabled}>
        撤销修复
      </Button>
    </Popconfirm>
  );
}
