/**
 * Where a sales order is (issue #22): 待处理 → 生产中 → 已发货 → 已完成, or 已取消. Without zod, so the
 * web app can take the labels without the validator.
 */
export const ORDER_STATUSES = ['pending', 'in_production', 'shipped', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_TEXT: Record<OrderStatus, string> = {
  pending: '待处理', in_production: '生产中', shipped: '已发货', completed: '已完成', cancelled: '已取消',
};
/** A shipment's carrier and tracking number, in characters at most: the console's fields, the API's schemas and the rule. */
export const TRACKING_LIMITS = { carrier: 50, trackingNumber: 64 } as const;
