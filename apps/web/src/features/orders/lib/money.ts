import { MSG } from '@portal/contract/messages';

/** ¥12.50; 暂无 when there is no price (decisions: a SKU without a customer price). */
export function moneyText(amount: number | null | undefined, none: string = MSG.priceMissing): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return none;
  return `¥${amount.toFixed(2)}`;
}
