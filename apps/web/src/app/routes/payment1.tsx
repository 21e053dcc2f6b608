import { Card, Empty, Flex, Typography } from 'antd';

/** Order confirmation (decisions §7): reads the batch draft and places the order. */
export function Payment1Route() {
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        确认订单
      </Typography.Title>
      <Card>
        <Empty description="暂无待确认的订单" />
      </Card>
    </Flex>
  );
}
