import type { BatchOrderAnswer, BatchOrderBody } from '@portal/contract/api';
import { useMutation } from '@tanstack/react-query';
import { post } from '../../../lib/http.ts';

export type PlacedBatch = (typeof BatchOrderAnswer)['_zod']['output']['message'];
export type PlacedOrder = PlacedBatch['orders'][number];

/**
 * POST /api/sales_order/batch: one sales order per work, in one transaction. The same idempotency
 * key answers the first result again and creates nothing. A refusal is a 4xx whose message names
 * the first work that fails.
 */
export async function placeBatchOrder(body: BatchOrderBody): Promise<PlacedBatch> {
  const { data } = await post<{ state: number; message: PlacedBatch }>('/api/sales_order/batch', body);
  return data.message;
}

export function usePlaceBatchOrder() {
  return useMutation({ mutationFn: placeBatchOrder });
}
