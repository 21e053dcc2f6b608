import type { RepeatCheckRow as RepeatCheckRowSchema } from '@portal/contract/api';
import { post } from '../../../lib/http.ts';

export type RepeatCheckRow = (typeof RepeatCheckRowSchema)['_zod']['output'];

/**
 * POST /api/sales_order/repeatFileNameCheck: for each name sent, whether it was sent more than
 * once and the number of an order of the hub that already has it; then, for the works of
 * `workUuids` whose content (not only name) is already in an order of the hub, a row with
 * workUuid, sameContent and that order's number.
 */
export async function repeatFileNameCheck(customerHubId: number, files: readonly string[], workUuids: readonly string[] = []): Promise<RepeatCheckRow[]> {
  const { data } = await post<RepeatCheckRow[]>('/api/sales_order/repeatFileNameCheck', { customerHubId, files, ...(workUuids.length ? { workUuids } : {}) });
  return Array.isArray(data) ? data : [];
}
