import { Button, Flex, Popconfirm, Space, Typography } from 'antd';
import type { Totals } from '../lib/totals.ts';

export interface WorksFooterProps {
  totals: Totals;
  canReset: boolean;
  canSubmit: boolean;
  submitting?: boolean;
  onReset?: () => void;
  onSubmit?: () => void;
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <span>
      <Typography.Text type="secondary">{label}</Typography.Text>{' '}
      <Typography.Text strong style={{ fontSize: 18 }} data-testid={testId}>
        {value}
      </Typography.Text>
    </span>
  );
}

/** The totals of ../shared/spec/product-spec.md §2 and the page's last two buttons: 重置 (confirmed first) and 批量下单. */
export function WorksFooter({ totals, canReset, canSubmit, submitting = false, onReset, onSubmit }: WorksFooterProps) {
  return (
    <Flex align="center" justify="space-between" wrap gap={16}>
      <Space size={32} role="group" aria-label="合计">
        <Figure label="总页数" value={totals.totalPages} testId="total-pages" />
        <Figure label="文件数" value={totals.fileCount} testId="file-count" />
        <Figure label="总份数" value={totals.totalCopies} testId="total-copies" />
      </Space>
      <Space>
        <Popconfirm
          title="确定重置吗？"
          description="将清空订单列表和所有上传记录"
          okText="确定"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={onReset}
          disabled={!canReset}
        >
          <Button disabled={!canReset}>重置</Button>
        </Popconfirm>
        <Button type="primary" disabled={!canSubmit} loading={submitting} onClick={onSubmit}>
          批量下单
        </Button>
      </Space>
    </Flex>
  );
}
