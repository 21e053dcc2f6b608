import { Card, Flex, Typography } from 'antd';
import { OrdersTable } from '../../features/orders/index.ts';

/** The hub's orders, newest first (../shared/spec/decisions.md §7). */
export function OrdersRoute() {
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        我的订单
      </Typography.Title>
      <Card size="small">
        <OrdersTable />
      </Card>
    </Flex>
  );
}
