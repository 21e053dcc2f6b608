import type { PriceAnswer as PriceAnswerSchema } from '@portal/contract/api';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';
import { useAccount } from '../../auth/index.ts';

/** `amount` is null when the SKU has no price for this customer. */
export type PriceAnswer = (typeof PriceAnswerSchema)['_zod']['output'];

/** The suggested retail price is the customer's price at quantity 1 (../shared/spec/product-spec.md §9). */
export const SUGGESTED_PRICE_QUANTITY = 1;

/** GET /api/price-lines/getByPriceTypeAndIdAndPropertyConfigId with entityId = the customer. */
export async function getSuggestedPrice(
  customerId: number,
  productId: number,
  propertyConfigId: number,
  signal?: AbortSignal,
): Promise<PriceAnswer> {
  const { data } = await get<PriceAnswer>('/api/price-lines/getByPriceTypeAndIdAndPropertyConfigId', {
    query: { entityId: customerId, priceType: 'customer', productId, propertyConfigId, quantity: SUGGESTED_PRICE_QUANTITY },
    signal,
  });
  return data;
}

export function useSuggestedPrice(productId: number | undefined, propertyConfigId: number | undefined) {
  const customerId = useAccount().data?.customerId;
  return useQuery({
    queryKey: ['suggested-price', customerId, productId, propertyConfigId],
    queryFn: ({ signal }) => getSuggestedPrice(customerId as number, productId as number, propertyConfigId as number, signal),
    enabled: customerId !== undefined && productId !== undefined && propertyConfigId !== undefined,
  });
}
