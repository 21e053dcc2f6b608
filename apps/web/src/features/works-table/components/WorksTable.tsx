import { Empty, Table, type TableColumnsType } from 'antd';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { shallowEqual } from '../../../lib/external-store.ts';
import { rowByUuid, useBatch, useWorks } from '../../batch/index.ts';
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
import { PreviewDialog } from './PreviewDialog.tsx';
import { RenameDialog } from './RenameDialog.tsx';
import { RowActions } from './RowActions.tsx';

/** What the table hands to antd: only the key. Cells read everything else from the store. */
interface RowRef {
  uuid: string;
}

export interface WorksTableProps {
  /** The address line under each row (hubs with batchAddressParsing). */
  renderAddress?: (uuid: string) => ReactNode;
  /** 重选产品 of one row. */
  onReselect?: (uuid: string) => void;
  /** Height of the scrolling body, px. */
  height?: number;
  /** Only these works are shown (the triage's chosen group); null or absent: all. */
  onlyUuids?: ReadonlySet<string> | null;
}

const selectUuids = (s: { rows: readonly { uuid: string }[] }) => s.rows.map((r) => r.uuid);

/**
 * The order table (../shared/spec/product-spec.md §2, ../shared/spec/decisions.md §8): the columns and their order, virtualised
 * (antd's `virtual`, a fixed body height) so 2,000 works scroll like 20. The table re-renders when
 * rows are added, removed, reordered or selected; each cell subscribes to its own field.
 */
export function WorksTable({ renderAddress, onReselect, height = 560, onlyUuids }: WorksTableProps) {
  const { setSelectedWorks, worksStore } = useBatch();
  const allUuids = useWorks(selectUuids, shallowEqual);
  const uuids = useMemo(() => (onlyUuids ? allUuids.filter((u) => onlyUuids.has(u)) : allUuids), [allUuids, onlyUuids]);
  const selectedKeys = useWorks((s) => s.selectedKeys);
  const [previewing, setPreviewing] = useState<string | undefined>();
  const [renaming, setRenaming] = useState<string | undefined>();

  // The same record object for the same uuid, so antd sees unchanged rows as unchanged.
  const refs = useRef(new Map<string, RowRef>());
  const data = useMemo(() => {
    const previous = refs.current;
    const next = new Map<string, RowRef>();
    for (const uuid of uuids) next.set(uuid, previous.get(uuid) ?? { uuid });
    refs.current = next;
    return [...next.values()];
  }, [uuids]);

  const columns = useMemo<TableColumnsType<RowRef>>(
    () => [
      { title: '作品名称', key: 'articleName', width: 220, render: (_: unknown, r) => <NameCell uuid={r.uuid} onRename={setRenaming} /> },
      { title: '订购数量', key: 'quantity', width: 110, render: (_: unknown, r) => <QuantityCell uuid={r.uuid} /> },
      { title: '产品名称', key: 'productName', width: 150, render: (_: unknown, r) => <ProductNameCell uuid={r.uuid} /> },
      { title: '产品详情', key: 'productDetails', width: 180, render: (_: unknown, r) => <ProductDetailsCell uuid={r.uuid} /> },
      { title: '文件尺寸', key: 'fileSize', width: 170, render: (_: unknown, r) => <FileSizeCell uuid={r.uuid} /> },
      { title: '页数', key: 'pageCount', width: 70, render: (_: unknown, r) => <PageCountCell uuid={r.uuid} /> },
      { title: '加页数', key: 'addPageNum', width: 76, render: (_: unknown, r) => <AddPageCell uuid={r.uuid} /> },
      { title: '匹配状态', key: 'state', width: 100, render: (_: unknown, r) => <StateCell uuid={r.uuid} /> },
      { title: '调色', key: 'toning', width: 70, render: (_: unknown, r) => <ToningCell uuid={r.uuid} /> },
      {
        title: '操作',
        key: 'actions',
        width: 200,
        fixed: 'right',
        render: (_: unknown, r) => <RowActions uuid={r.uuid} onPreview={setPreviewing} onReselect={onReselect} />,
      },
    ],
    [onReselect],
  );
  const scrollX = useMemo(() => columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 48), [columns]);

  const expandedRowRender = useCallback((r: RowRef) => renderAddress?.(r.uuid), [renderAddress]);

  const previewRow = previewing ? rowByUuid(worksStore.getState(), previewing) : undefined;

  return (
    <>
      <Table<RowRef>
        virtual
        rowKey="uuid"
        size="middle"
        columns={columns}
        dataSource={data}
        pagination={false}
        scroll={{ x: scrollX, y: height }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无作品，请先上传文件" /> }}
        rowSelection={{
          columnWidth: 48,
          selectedRowKeys: selectedKeys as string[],
          renderCell: (checked, row, _index, node) => (
            <DeferredCheckbox uuid={row.uuid} checked={checked}>
              {node}
            </DeferredCheckbox>
          ),
          // antd names it Select all.
          getTitleCheckboxProps: () => ({ 'aria-label': '全选' }),
          onChange: (keys) => setSelectedWorks(keys.map(String)),
        }}
        expandable={
          renderAddress
            ? { expandedRowRender, expandedRowKeys: uuids as string[], showExpandColumn: false, expandedRowClassName: () => 'works-address-row' }
            : undefined
        }
      />
      <PreviewDialog work={previewRow} onClose={() => setPreviewing(undefined)} />
      <RenameDialog uuid={renaming} onClose={() => setRenaming(undefined)} />
    </>
  );
}
