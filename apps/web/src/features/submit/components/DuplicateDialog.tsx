import { Button, Flex, Modal, Radio, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { choose, unresolvedCount, type DuplicateChoice, type DuplicateRow } from '../lib/duplicates.ts';

export interface DuplicateDialogProps {
  /** The listed rows; the dialog is closed when null. */
  rows: readonly DuplicateRow[] | null;
  onCancel: () => void;
  /** Gets the rows with the customer's choices; the caller refuses unresolved ones. */
  onConfirm: (rows: DuplicateRow[]) => void;
}

const PAGE_SIZE = 8;

/** 重复文件检测 (../shared/spec/product-spec.md §2 dialogs, §4): each listed row is set to 保留 or 删除. */
export function DuplicateDialog({ rows, onCancel, onConfirm }: DuplicateDialogProps) {
  const [choices, setChoices] = useState<DuplicateRow[]>(() => (rows ? [...rows] : []));
  // A new list opens the dialog afresh (React's "adjust state when a prop changes" pattern).
  const [shown, setShown] = useState(rows);
  if (shown !== rows) {
    setShown(rows);
    setChoices(rows ? [...rows] : []);
  }

  const columns = useMemo<TableColumnsType<DuplicateRow>>(
    () => [
      { title: '序号', dataIndex: 'position', key: 'position', width: 64 },
      { title: '文件名', dataIndex: 'fileName', key: 'fileName', ellipsis: true },
      { title: '作品名称', dataIndex: 'articleName', key: 'articleName', ellipsis: true },
      {
        title: '原因',
        key: 'reason',
        width: 230,
        render: (_: unknown, r) => (
          <Space size={4} wrap>
            {r.duplicated && <Tag color="orange">文件名重复</Tag>}
            {r.salesOrderNumber && (r.sameContent
              ? <Tag color="purple">内容已下单 {r.salesOrderNumber}</Tag>
              : <Tag color="blue">已下单 {r.salesOrderNumber}</Tag>)}
          </Space>
        ),
      },
      {
        title: '操作',
        key: 'operatingResult',
        width: 150,
        render: (_: unknown, r) => (
          <Radio.Group
            size="small"
            aria-label={`${r.fileName}的操作`}
            value={r.operatingResult}
            onChange={(e) => setChoices((all) => choose(all, new Set([r.uuid]), e.target.value as DuplicateChoice))}
            options={[
              { value: 'retain', label: '保留' },
              { value: 'delete', label: '删除' },
            ]}
          />
        ),
      },
    ],
    [],
  );

  const left = unresolvedCount(choices);
  return (
    <Modal
      open={rows !== null}
      title="重复文件检测"
      width={860}
      onCancel={onCancel}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center">
          <Typography.Text type={left ? 'warning' : 'secondary'}>{left ? `还有${left}个文件未选择保留或删除` : '已全部处理'}</Typography.Text>
          <Space>
            <Button onClick={onCancel}>取消</Button>
            <Button type="primary" onClick={() => onConfirm(choices)}>
              确定
            </Button>
          </Space>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type="secondary">以下文件名重复或已经下过单，请逐个选择保留或删除；删除的作品将从订单列表移除。序号是作品在订单列表中的位置。</Typography.Text>
          <Space>
            <Button size="small" onClick={() => setChoices((all) => choose(all, 'all', 'retain'))}>
              全部保留
            </Button>
            <Button size="small" danger onClick={() => setChoices((all) => choose(all, 'all', 'delete'))}>
              全部删除
            </Button>
          </Space>
        </Flex>
        <Table<DuplicateRow>
          size="small"
          rowKey="uuid"
          columns={columns}
          dataSource={choices}
          pagination={choices.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, showSizeChanger: false, size: 'small' } : false}
        />
      </Flex>
    </Modal>
  );
}
