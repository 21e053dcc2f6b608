import { Button, Card, Flex, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { FullPageSpin } from '../../components/FullPageSpin.tsx';
import { useCustomerHub } from '../../features/auth/api/customer-hub.ts';
import { WorksFooter } from '../../features/works-table/components/WorksFooter.tsx';
import { WorksTable, type WorkRow } from '../../features/works-table/components/WorksTable.tsx';
import { computeTotals } from '../../features/works-table/lib/totals.ts';

/**
 * The batch upload order page. It waits for the hub: batchAddressParsing decides the delivery
 * mode, the 统一设置地址 button and the address lines of each row.
 */
export function BatchUploadRoute() {
  const hub = useCustomerHub();
  const [works] = useState<WorkRow[]>([]);
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const totals = useMemo(() => computeTotals(works), [works]);

  if (!hub.data) return <FullPageSpin />;
  const { batchAddressParsing } = hub.data;

  return (
    <Flex vertical gap={16}>
      <Flex align="center" justify="space-between" wrap gap={12}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          批量上传下单
        </Typography.Title>
        <Space>
          {batchAddressParsing && <Button disabled={works.length === 0}>统一设置地址</Button>}
          <Button type="primary" disabled={selectedKeys.length === 0}>
            选择产品
          </Button>
        </Space>
      </Flex>
      <Card styles={{ body: { padding: 0 } }}>
        <WorksTable works={works} selectedKeys={selectedKeys} onSelectionChange={setSelectedKeys} />
      </Card>
      <Card size="small">
        <WorksFooter totals={totals} canReset={works.length > 0} canSubmit={works.length > 0} />
      </Card>
    </Flex>
  );
}
