import type { Category } from '@portal/contract/api';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';
import { useAccount } from '../../auth/index.ts';

/** GET /api/customer-hubs/getProductCategoryPage/{hubId}: the category tree of what the hub may order. */
export async function getProductCategories(customerHubId: number, signal?: AbortSignal): Promise<Category[]> {
  const { data } = await get<Category[]>(`/api/customer-hubs/getProductCategoryPage/${customerHubId}`, {
    query: { client: true },
    signal,
  });
  return Array.isArray(data) ? data : [];
}

export function useProductCategories(enabled = true) {
  const hubId = useAccount().data?.customerHubId;
  return useQuery({
    queryKey: ['product-categories', hubId],
    queryFn: ({ signal }) => getProductCategories(hubId as number, signal),
    enabled: enabled && hubId !== undefined,
    staleTime: 5 * 60_000,
  });
}
