import type { ProductSummary } from '@portal/contract/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';
import { useAccount } from '../../auth/index.ts';

export interface ProductsPageParams {
  /** Zero-based. */
  page: number;
  size: number;
  productCategoryId?: number;
  productName?: string;
}

export interface Paged<T> {
  items: T[];
  /** From the header x-total-count. */
  total: number;
}

export function totalOf(headers: Headers, fallback: number): number {
  const n = Number(headers.get('x-total-count'));
  return Number.isFinite(n) && headers.has('x-total-count') ? n : fallback;
}

/** GET /api/customer-hubs/getProductsPage/{hubId}: products of the card picker (a category includes its sub-categories). */
export async function getProductsPage(customerHubId: number, params: ProductsPageParams, signal?: AbortSignal): Promise<Paged<ProductSummary>> {
  const { data, headers } = await get<ProductSummary[]>(`/api/customer-hubs/getProductsPage/${customerHubId}`, {
    query: { ...params, productName: params.productName || undefined },
    signal,
  });
  const items = Array.isArray(data) ? data : [];
  return { items, total: totalOf(headers, items.length) };
}

export function useProductsPage(params: ProductsPageParams, enabled = true) {
  const hubId = useAccount().data?.customerHubId;
  return useQuery({
    queryKey: ['products-page', hubId, params],
    queryFn: ({ signal }) => getProductsPage(hubId as number, params, signal),
    enabled: enabled && hubId !== undefined,
    placeholderData: keepPreviousData,
  });
}
