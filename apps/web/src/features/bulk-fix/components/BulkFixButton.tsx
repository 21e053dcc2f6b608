import { fixIdOfPath } from '@portal/contract/bulk-fix';
import { MSG } from '@portal/contract/messages';
import { App, Button } from 'antd';
import { useAccount } from '../../auth/index.ts';
import { useBatch, type Batch } from '../../batch/index.ts';
import { errorMessage } from '../../../lib/http.ts';
import { undoAndTake } from '../after-fix.ts';
import { openBulkFix } from '../dialog.ts';
import { targetsOf } from '../lib/targets.ts';

const NOTHING_TO_FIX = '所选作品没有需要修复的文件（请先选择产品完成校验）';

/**
 * Opens 批量修复 for works of the batch (the checked rows, a triage group's works): their failing and
 * warned files, each with the fix that suits its problem. Answers false when there is nothing to fix.
 */
export function openBulkFixForWorks(batch: Pick<Batch, 'worksStore'>, uuids: readonly string[], onDone?: () => void): boolean {
  const chosen = new Set(uuids);
  const targets = targetsOf(batch.worksStore.getState().rows.filter((r) => chosen.has(r.uuid)));
  if (targets.length === 0) return false;
  openBulkFix(targets, { onDone });
  return true;
}

/**
 * 批量修复 next to 选择产品: for the checked rows (请选择订单 when none is checked). Checked rows with nothing
 * left to fix but fixed pictures are offered their undo: after 完成 the dialog's 撤销 is gone.
 */
export function BulkFixButton() {
  const { message, modal } = App.useApp();
  const batch = useBatch();
  const customerHubId = useAccount().data?.customerHubId;
  const offerUndo = (fixIds: string[]) =>
    modal.confirm({
      title: '所选作品没有需要修复的文件',
      content: `其中${fixIds.length}个文件是修复后的文件：撤销这些修复，恢复为原文件并重新校验？`,
      okText: '撤销修复',
      cancelText: '取消',
      onOk: async () => {
        try {
          const answer = await undoAndTake(batch, fixIds, customerHubId);
          void message.success(`已撤销${answer.undone.length}个修复`);
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  return (
    <Button
      onClick={() => {
        const { rows, selectedKeys } = batch.worksStore.getState();
        const present = new Set(rows.map((r) => r.uuid));
        const uuids = selectedKeys.filter((k) => present.has(k));
        if (uuids.length === 0) return void message.warning(MSG.selectOrder);
        if (openBulkFixForWorks(batch, uuids)) return;
        const chosen = new Set(uuids);
        const fixIds = rows.filter((r) => chosen.has(r.uuid)).flatMap((r) => r.files.map((f) => fixIdOfPath(f.filePath))).filter((id): id is string => id !== null);
        if (fixIds.length > 0) offerUndo(fixIds);
        else void message.info(NOTHING_TO_FIX);
      }}
    >
      批量修复
    </Button>
  );
}
