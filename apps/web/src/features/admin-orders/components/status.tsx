import { ORDER_STATUS_TEXT, type OrderStatus } from '@portal/contract/order-status';
import { Tag } from 'antd';

const COLOR: Record<OrderStatus, string> = { pending: 'gold', in_production: 'blue', shipped: 'cyan', completed: 'green', cancelled: 'default' };

export function StatusTag({ status }: { status: OrderStatus }) {
  return <Tag color={COLOR[status]} data-testid="order-status">{ORDER_STATUS_TEXT[status]}</Tag>;
}

export const money = (n: number) => `¥${n.toFixed(2)}`;
