import type { ProductDetails } from '@portal/contract/api';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';
import { useAccount } from '../../auth/index.ts';

/** GET /api/customer-hubs/getProductDetails: components with their print rules, options, SKUs, template links. */
export async function getProductDetails(productId: number, customerId: number | undefined, signal?: AbortSignal): Promise<ProductDetails> {
  const { data } = await get<{ state: number; message: ProductDetails }>('/api/customer-hubs/getProductDetails', {
    query: { productId, customerId },
    signal,
  });
  return data.message;
}

export function useProductDetails(productId: number | undefined) {
  const customerId = useAccount().data?.customerId;
  return useQuery({
    queryKey: ['product-details', productId, customerId],
    queryFn: ({ signal }) => getProductDetails(productId as number, customerId, signal),
    enabled: productId !== undefined && customerId !== undefined,
    // Template links are signed with an expiry: fetch afresh rather than keep them for long.
    staleTime: 60_000,
  });
}
