import { Empty, Table, type TableColumnsType } from 'antd';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { shallowEqual } from '../../../lib/external-store.ts';
import { comparePlaces, rowByUuid, useBatch, usePreflight, useWorks, type PreflightItem, type PreflightState, type RowPlace } from '../../batch/index.ts';
import {
  AddPageCell,
  DeferredCheckbox,
  FileSizeCell,
  NameCell,
  PageCountCell,
  ProductDetailsCell,
  ProductNameCell,
  QuantityCell,
  StateCell,
  ToningCell,
} from './cells.tsx';
import { isPreflightRow, PREFLIGHT_PREFIX, PreflightActions, PreflightNameCell, PreflightPagesCell, PreflightProductCell, PreflightSizeCell, PreflightStateCell } from './PreflightCells.tsx';
import { PreviewDialog } from './PreviewDialog.tsx';
import { RenameDialog } from './RenameDialog.tsx';
import { RowActions } from './RowActions.tsx';
import { keepRowKeys, NO_ROW_KEYS, type RowKeys, type RowRef } from '../lib/row-keys.ts';

export interface WorksTableProps {
  /** The address line under each row (hubs with batchAddressParsing). */
  renderAddress?: (uuid: string) => ReactNode;
  /** 重选产品 of one row; 选择产品 of a preflight row (its key). */
  onReselect?: (uuid: string) => void;
  /** Height of the scrolling body, px. */
  height?: number;
  /** Only these works are shown (the triage's chosen group); null or absent: all. */
  onlyUuids?: ReadonlySet<string> | null;
}

const selectUuids = (s: { rows: readonly { uuid: string }[] }) => s.rows.map((r) => r.uuid);
const selectPreflightRows = (s: PreflightState) => s.keys.map((key) => s.items[key]);

/**
 * The rows in the order they stand: the works (in their places) and, where a pick's item has not become works yet,
 * its preflight row at the place its works will take; an item whose works came is not shown twice. Without this
 * the preflight rows followed every work, and an item parsed late pushed the works after it down a row under the
 * customer's pointer (e2e upload.test "rows keep the picked order").
 */
function rowsInPlace(uuids: readonly string[], preflight: readonly (PreflightItem | undefined)[], placeOf: (uuid: string) => RowPlace): string[] {
  const places = uuids.map(placeOf);
  // A work's place is its item's place and its index among the item's works (works.ts addWorks).
  const itemsWithWorks = new Set(places.map((place) => place.slice(0, -1).join(':')));
  const out: string[] = [];
  let w = 0;
  for (const item of preflight) {
    if (!item) continue;
    const place = item.place ?? [Infinity];
    if (itemsWithWorks.has(place.join(':'))) continue;
    while (w < uuids.length && comparePlaces(places[w] as RowPlace, place) < 0) out.push(uuids[w++] as string);
    out.push(`${PREFLIGHT_PREFIX}${item.key}`);
  }
  out.push(...uuids.slice(w));
  return out;
}

/** A column's cell, or the preflight's own for the provisional rows of items still uploading. */
const orPreflight = (real: (uuid: string) => ReactNode, preflight?: (uuid: string) => ReactNode) =>
  (_: unknown, r: RowRef) => (isPreflightRow(r.uuid) ? (preflight?.(r.uuid) ?? null) : real(r.uuid));

/**
 * The order table (../shared/spec/product-spec.md §2, ../shared/spec/decisions.md §8): the columns and their order, virtualised
 * (antd's `virtual`, a fixed body height) so 2,000 works scroll like 20. The table re-renders when
 * rows are added, removed, reordered or selected; each cell subscribes to its own field.
 */
export function WorksTable({ renderAddress, onReselect, height = 560, onlyUuids }: WorksTableProps) {
  const { setSelectedWorks, worksStore, placeOf } = useBatch();
  const allUuids = useWorks(selectUuids, shallowEqual);
  const uuids = useMemo(() => (onlyUuids ? allUuids.filter((u) => onlyUuids.has(u)) : allUuids), [allUuids, onlyUuids]);
  // The preflight's rows (items whose parse has not answered) stand where their works will; a chosen group shows none.
  const preflightRows = usePreflight(selectPreflightRows, shallowEqual);
  const shown = useMemo(
    () => (onlyUuids || preflightRows.length === 0 ? uuids : rowsInPlace(uuids, preflightRows, placeOf)),
    [uuids, preflightRows, onlyUuids, placeOf],
  );
  const [previewing, setPreviewing] = useState<string | undefined>();
  const [renaming, setRenaming] = useState<string | undefined>();

  // What the table hands to antd: the uuid and the row's key (lib/row-keys.ts), the same object for the same row, so
  // antd sees unchanged rows as unchanged. Cells read everything else from the store.
  const keys = useRef<RowKeys>(NO_ROW_KEYS);
  const { data, keyOf, uuidOf } = useMemo(() => {
    const preflightPlaces = new Map<string, RowPlace | undefined>();
    for (const item of preflightRows) if (item) preflightPlaces.set(`${PREFLIGHT_PREFIX}${item.key}`, item.place);
    const placeOfRow = (uuid: string) => {
      if (!isPreflightRow(uuid)) return placeOf(uuid).join(':');
      // Where the item's first work will stand.
      const place = preflightPlaces.get(uuid);
      return place ? [...place, 0].join(':') : '';
    };
    keys.current = keepRowKeys(shown, placeOfRow, keys.current);
    const rows = [...keys.current.rows.values()];
    const uuidByKey = new Map(rows.map((r) => [r.key, r.uuid]));
    const byUuid = keys.current.rows;
    return {
      data: rows,
      keyOf: (uuid: string) => byUuid.get(uuid)?.key ?? uuid,
      uuidOf: (key: string) => uuidByKey.get(key) ?? key,
    };
  }, [shown, preflightRows, placeOf]);

  // Every column adds up to 1,198 px with the checkboxes: a 1280×720 screen shows them all, 匹配状态 too (at 1,394 it
  // and 调色 scrolled under 操作: LAN walk, 2026-11-30); long names are cut with their whole text on hover.
  const columns = useMemo<TableColumnsType<RowRef>>(
    () => [
      { title: '作品名称', key: 'articleName', width: 172, render: orPreflight((u) => <NameCell uuid={u} onRename={setRenaming} />, (u) => <PreflightNameCell uuid={u} />) },
      { title: '订购数量', key: 'quantity', width: 122, render: orPreflight((u) => <QuantityCell uuid={u} />) },
      { title: '产品名称', key: 'productName', width: 130, render: orPreflight((u) => <ProductNameCell uuid={u} />, (u) => <PreflightProductCell uuid={u} />) },
      { title: '产品详情', key: 'productDetails', width: 140, render: orPreflight((u) => <ProductDetailsCell uuid={u} />) },
      { title: '文件尺寸', key: 'fileSize', width: 150, render: orPreflight((u) => <FileSizeCell uuid={u} />, (u) => <PreflightSizeCell uuid={u} />) },
      { title: '页数', key: 'pageCount', width: 52, render: orPreflight((u) => <PageCountCell uuid={u} />, (u) => <PreflightPagesCell uuid={u} />) },
      { title: '加页数', key: 'addPageNum', width: 60, render: orPreflight((u) => <AddPageCell uuid={u} />) },
      { title: '匹配状态', key: 'state', width: 92, render: orPreflight((u) => <StateCell uuid={u} />, (u) => <PreflightStateCell uuid={u} />) },
      { title: '调色', key: 'toning', width: 56, render: orPreflight((u) => <ToningCell uuid={u} />) },
      {
        title: '操作',
        key: 'actions',
        width: 176,
        fixed: 'right',
        render: orPreflight((u) => <RowActions uuid={u} onPreview={setPreviewing} onReselect={onReselect} />, (u) => <PreflightActions uuid={u} onChoose={onReselect} />),
      },
    ],
    [onReselect],
  );
  const selectedKeys = useWorks((s) => s.selectedKeys);
  const selectedRowKeys = useMemo(() => selectedKeys.map(keyOf), [selectedKeys, keyOf]);
  const scrollX = useMemo(() => columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 48), [columns]);

  const expandedRowRender = useCallback((r: RowRef) => renderAddress?.(r.uuid), [renderAddress]);

  const previewRow = previewing ? rowByUuid(worksStore.getState(), previewing) : undefined;

  return (
    <>
      <Table<RowRef>
        virtual
        rowKey="key"
        size="middle"
        columns={columns}
        dataSource={data}
        pagination={false}
        scroll={{ x: scrollX, y: height }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无作品，请先上传文件" /> }}
        rowSelection={{
          columnWidth: 48,
          selectedRowKeys,
          renderCell: (checked, row, _index, node) => isPreflightRow(row.uuid) ? null : (
            <DeferredCheckbox uuid={row.uuid} checked={checked}>
              {node}
            </DeferredCheckbox>
          ),
          // antd names it Select all.
          getTitleCheckboxProps: () => ({ 'aria-label': '全选' }),
          // A preflight row is no work yet: it cannot be chosen (全选 leaves it out).
          getCheckboxProps: (row) => ({ disabled: isPreflightRow(row.uuid) }),
          onChange: (chosen) => setSelectedWorks(chosen.map((k) => uuidOf(String(k))).filter((u) => !isPreflightRow(u))),
        }}
        expandable={
          renderAddress
            ? { expandedRowRender, expandedRowKeys: uuids.map(keyOf), showExpandColumn: false, expandedRowClassName: () => 'works-address-row' }
            : undefined
        }
      />
      <PreviewDialog work={previewRow} onClose={() => setPreviewing(undefined)} />
      <RenameDialog uuid={renaming} onClose={() => setRenaming(undefined)} />
    </>
  );
}
