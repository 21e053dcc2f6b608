import type { SalesOrder } from '@portal/contract/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

export interface OrdersPage {
  items: SalesOrder[];
  total: number;
}

/** GET /api/sales_order: the hub's orders, newest first; the total is in x-total-count. */
export async function getOrders(page: number, size: number, signal?: AbortSignal): Promise<OrdersPage> {
  const { data, headers } = await get<SalesOrder[]>('/api/sales_order', { query: { page, size }, signal });
  const items = Array.isArray(data) ? data : [];
  const total = Number(headers.get('x-total-count'));
  return { items, total: Number.isFinite(total) && headers.has('x-total-count') ? total : page * size + items.length };
}

/** `page` is zero-based, as the server counts. */
export function useOrders(page: number, size: number) {
  return useQuery({
    queryKey: ['orders', page, size],
    queryFn: ({ signal }) => getOrders(page, size, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
