import { shopClock } from './production.ts';

/**
 * A sales order number: SO, the shop's day the batch was placed (UTC+8, as 下单时间 shows it), the batch id in 6
 * digits and the line in 4. On a server in UTC an order placed at 02:29 in the shop was numbered the day before.
 */
export function salesOrderNumber(placedAt: Date, batchId: number, line: number): string {
  const day = shopClock(placedAt).slice(0, 10).replaceAll('-', '');
  return `SO${day}${String(batchId).padStart(6, '0')}${String(line).padStart(4, '0')}`;
}
