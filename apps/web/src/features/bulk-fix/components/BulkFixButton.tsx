import { MSG } from '@portal/contract/messages';
import { App, Button } from 'antd';
import { useBatch, type Batch } from '../../batch/index.ts';
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

/** 批量修复 next to 选择产品: for the checked rows (请选择订单 when none is checked). */
export function BulkFixButton() {
  const { message } = App.useApp();
  const batch = useBatch();
  return (
    <Button
      onClick={() => {
        const { rows, selectedKeys } = batch.worksStore.getState();
        const present = new Set(rows.map((r) => r.uuid));
        const uuids = selectedKeys.filter((k) => present.has(k));
        if (uuids.length === 0) return void message.warning(MSG.selectOrder);
        if (!openBulkFixForWorks(batch, uuids)) void message.info(NOTHING_TO_FIX);
      }}
    >
      批量修复
    </Button>
  );
}
