import type { SkuRow } from '@portal/contract/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';
import { useAccount } from '../../auth/index.ts';
import { totalOf, type Paged, type ProductsPageParams } from './products-page.ts';

/** GET /api/customer-hubs/getCategoryProductsPage/{hubId}: SKU rows of the table picker. */
export async function getCategoryProductsPage(customerHubId: number, params: ProductsPageParams, signal?: AbortSignal): Promise<Paged<SkuRow>> {
  const { data, headers } = await get<SkuRow[]>(`/api/customer-hubs/getCategoryProductsPage/${customerHubId}`, {
    query: { ...params, productName: params.productName || undefined },
    signal,
  });
  const items = Array.isArray(data) ? data : [];
  return { items, total: totalOf(headers, items.length) };
}

export function useCategoryProductsPage(params: ProductsPageParams, enabled = true) {
  const hubId = useAccount().data?.customerHubId;
  return useQuery({
    queryKey: ['category-products-page', hubId, params],
    queryFn: ({ signal }) => getCategoryProductsPage(hubId as number, params, signal),
    enabled: enabled && hubId !== undefined,
    placeholderData: keepPreviousData,
  });
}
