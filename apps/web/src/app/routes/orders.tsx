import { Card, Empty, Flex, Typography } from 'antd';

/** The hub's orders, newest first (decisions §7). */
export function OrdersRoute() {
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        我的订单
      </Typography.Title>
      <Card>
        <Empty description="暂无订单" />
      </Card>
    </Flex>
  );
}
