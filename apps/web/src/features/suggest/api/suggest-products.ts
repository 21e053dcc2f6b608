import { useQuery } from '@tanstack/react-query';
import { SuggestProductsAnswer, type ProductSuggestion } from '@portal/contract/suggest';
import { post } from '../../../lib/http.ts';

/** Works asked about per request (the contract's limit). */
const WORKS_PER_ASK = 500;

/**
 * POST /api/sales_order/suggestProducts: for each work, the products and SKUs its files fit as they
 * are, best first. Asked in parts for a large batch.
 */
export async function suggestProducts(workUuids: readonly string[], signal?: AbortSignal): Promise<Map<string, ProductSuggestion[]>> {
  const out = new Map<string, ProductSuggestion[]>();
  for (let i = 0; i < workUuids.length; i += WORKS_PER_ASK) {
    const { data } = await post('/api/sales_order/suggestProducts', { workUuids: workUuids.slice(i, i + WORKS_PER_ASK) }, { schema: SuggestProductsAnswer, signal, silent: true });
    for (const w of data.works) out.set(w.workUuid, w.suggestions);
  }
  return out;
}

/** The suggestions of the works (none asked for an empty list); kept while the same works are asked again. */
export function useSuggestions(workUuids: readonly string[]) {
  return useQuery({
    queryKey: ['suggestProducts', workUuids],
    queryFn: ({ signal }) => suggestProducts(workUuids, signal),
    enabled: workUuids.length > 0,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}
