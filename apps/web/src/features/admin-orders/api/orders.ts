import type { AdminOrderDetail, AdminOrderRow, AdminOrdersQuery, AdminStatusBody, AdminTrackingBody } from '@portal/contract/admin';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../../lib/http.ts';

export type OrderFilters = Partial<Omit<AdminOrdersQuery, 'page' | 'size'>>;

/** GET /api/admin/orders: every hub's orders, newest first; the total is in x-total-count. */
export async function getAdminOrders(page: number, size: number, filters: OrderFilters, signal?: AbortSignal) {
  const { data, headers } = await get<AdminOrderRow[]>('/api/admin/orders', { query: { page, size, ...filters }, signal });
  return { items: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export function useAdminOrders(page: number, size: number, filters: OrderFilters) {
  return useQuery({
    queryKey: ['admin', 'orders', page, size, filters],
    queryFn: ({ signal }) => getAdminOrders(page, size, filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Orders come in while the list is open: it showed none of them until reloaded (console walk).
    refetchInterval: 30_000,
  });
}

/** GET /api/admin/orders/{id}: one order with its files, check, address, price basis and timeline. */
export function useAdminOrder(id: number) {
  return useQuery({
    queryKey: ['admin', 'order', id],
    queryFn: async ({ signal }) => (await get<AdminOrderDetail>(`/api/admin/orders/${id}`, { signal })).data,
    staleTime: 0,
  });
}

/** POST /api/admin/orders/{id}/status: 409/422 come back with the reason in Chinese. */
export function useChangeStatus(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AdminStatusBody) => (await post<{ statusText: string }>(`/api/admin/orders/${id}/status`, body)).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** POST /api/admin/orders/{id}/tracking: a shipped order's carrier and tracking number corrected. */
export function useCorrectTracking(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AdminTrackingBody) => (await post<{ trackingNumber: string }>(`/api/admin/orders/${id}/tracking`, body)).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** GET /api/admin/products and /api/admin/hubs for the filters. */
export function useFilterOptions() {
  const products = useQuery({
    queryKey: ['admin', 'products'],
    queryFn: async ({ signal }) => (await get<Array<{ id: number; name: string }>>('/api/admin/products', { signal })).data,
    staleTime: 60_000,
  });
  const hubs = useQuery({
    queryKey: ['admin', 'hubs'],
    queryFn: async ({ signal }) => (await get<Array<{ id: number; name: string }>>('/api/admin/hubs', { signal })).data,
    staleTime: 60_000,
  });
  return { products, hubs };
}
