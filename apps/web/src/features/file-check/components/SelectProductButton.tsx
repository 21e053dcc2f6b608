import { MSG } from '@portal/contract/messages';
import { App, Button } from 'antd';
import { useBatch, type WorkRow, type WorksState } from '../../batch/index.ts';
import type { Store } from '../../../lib/external-store.ts';
import { openProductChooser } from '../dialogs.ts';

/** 选择产品 for the checked rows (请选择订单 when none is checked). */
export function chooseProductForSelected(worksStore: Store<WorksState>, warn: (text: string) => void): void {
  const { rows, selectedKeys } = worksStore.getState();
  const present = new Set(rows.map((r) => r.uuid));
  const uuids = selectedKeys.filter((k) => present.has(k));
  if (uuids.length === 0) {
    warn(MSG.selectOrder);
    return;
  }
  const first = rows.find((r) => r.uuid === uuids[0]);
  openProductChooser(uuids, initialOf(first));
}

/** 选择产品 of an item still uploading (its preflight row, `preflight:<item key>`): FileCheckHost gives the choice to the preflight. */
export function chooseProductForPreflight(rowKey: string): void {
  openProductChooser([rowKey]);
}

/** 重选产品 of one row: its current product and SKU start chosen. */
export function reselectProduct(row: WorkRow): void {
  openProductChooser([row.uuid], initialOf(row));
}

function initialOf(row: WorkRow | undefined) {
  return row?.productId != null && row.propertyConfigId != null ? { productId: row.productId, propertyConfigId: row.propertyConfigId } : undefined;
}

export function SelectProductButton({ disabled }: { disabled?: boolean }) {
  const { message } = App.useApp();
  const { worksStore } = useBatch();
  return (
    <Button type="primary" disabled={disabled} onClick={() => chooseProductForSelected(worksStore, (text) => void message.warning(text))}>
      选择产品
    </Button>
  );
}
