import { WebhookDeliveriesAnswer } from '@portal/contract/admin-webhooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

export type DeliveriesQuery = { page: number; size: number; status?: 'pending' | 'succeeded' | 'failed' | undefined; salesOrderNumber?: string | undefined };

/** GET /api/admin/webhooks/deliveries: the delivery log, newest first, with every attempt. */
export async function getDeliveries(q: DeliveriesQuery, signal?: AbortSignal) {
  return (await get('/api/admin/webhooks/deliveries', { query: q, signal, schema: WebhookDeliveriesAnswer })).data;
}

/** Refreshed every few seconds while a delivery is still pending (its retries are under way). */
export function useDeliveries(q: DeliveriesQuery) {
  return useQuery({
    queryKey: ['admin', 'webhooks', 'deliveries', q],
    queryFn: ({ signal }) => getDeliveries(q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'pending') ? 3000 : false),
  });
}
