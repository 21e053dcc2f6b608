import { Table, type TableColumnsType } from 'antd';

/**
 * One row per work. The row type grows with the upload and check features; the columns and
 * their order are those of decisions §8.
 */
export interface WorkRow {
  uuid: string;
  articleName: string;
  quantity: number;
  pageCount?: number | null;
  addPageNum?: number | null;
}

const columns: TableColumnsType<WorkRow> = [
  { title: '作品名称', dataIndex: 'articleName', key: 'articleName', width: 180, ellipsis: true },
  { title: '订购数量', dataIndex: 'quantity', key: 'quantity', width: 100 },
  { title: '产品名称', key: 'productName', width: 150 },
  { title: '产品详情', key: 'productDetails', width: 200 },
  { title: '文件尺寸', key: 'fileSize', width: 140 },
  { title: '页数', dataIndex: 'pageCount', key: 'pageCount', width: 70 },
  { title: '加页数', dataIndex: 'addPageNum', key: 'addPageNum', width: 80 },
  { title: '匹配状态', key: 'state', width: 100 },
  { title: '调色', key: 'toning', width: 70 },
  { title: '操作', key: 'actions', width: 180, fixed: 'end' },
];

export interface WorksTableProps {
  works: readonly WorkRow[];
  selectedKeys: readonly string[];
  onSelectionChange: (keys: string[]) => void;
}

export function WorksTable({ works, selectedKeys, onSelectionChange }: WorksTableProps) {
  return (
    <Table<WorkRow>
      rowKey="uuid"
      columns={columns}
      dataSource={works as WorkRow[]}
      pagination={false}
      scroll={{ x: 'max-content' }}
      rowSelection={{
        selectedRowKeys: selectedKeys as string[],
        onChange: (keys) => onSelectionChange(keys.map(String)),
      }}
    />
  );
}
