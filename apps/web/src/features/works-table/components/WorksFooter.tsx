import { Button, Flex, Space, Typography } from 'antd';
import type { Totals } from '../lib/totals.ts';

export interface WorksFooterProps {
  totals: Totals;
  canReset: boolean;
  canSubmit: boolean;
  onReset?: () => void;
  onSubmit?: () => void;
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <span>
      <Typography.Text type="secondary">{label}</Typography.Text>{' '}
      <Typography.Text strong style={{ fontSize: 18 }}>
        {value}
      </Typography.Text>
    </span>
  );
}

export function WorksFooter({ totals, canReset, canSubmit, onReset, onSubmit }: WorksFooterProps) {
  return (
    <Flex align="center" justify="space-between" wrap gap={16}>
      <Space size={32} role="group" aria-label="合计">
        <Figure label="总页数" value={totals.totalPages} />
        <Figure label="文件数" value={totals.fileCount} />
        <Figure label="总份数" value={totals.totalCopies} />
      </Space>
      <Space>
        <Button disabled={!canReset} onClick={onReset}>
          重置
        </Button>
        <Button type="primary" disabled={!canSubmit} onClick={onSubmit}>
          批量下单
        </Button>
      </Space>
    </Flex>
  );
}
