import type { RepeatCheckRow as RepeatCheckRowSchema } from '@portal/contract/api';
import { post } from '../../../lib/http.ts';

export type RepeatCheckRow = (typeof RepeatCheckRowSchema)['_zod']['output'];

/**
 * POST /api/sales_order/repeatFileNameCheck: for each name sent, whether it was sent more than
 * once and the number of an order of the hub that already has it.
 */
export async function repeatFileNameCheck(customerHubId: number, files: readonly string[]): Promise<RepeatCheckRow[]> {
  const { data } = await post<RepeatCheckRow[]>('/api/sales_order/repeatFileNameCheck', { customerHubId, files });
  return Array.isArray(data) ? data : [];
}
