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

const KEEP_MS = 60_000;
/** Answers already had, per work, for KEEP_MS: a batch that grows by a parse at a time asks only about its new works. */
const answered = new Map<string, { at: number; suggestions: ProductSuggestion[] }>();

/**
 * The suggestions of the works (none asked for an empty list); kept while the same works are asked again.
 * Only the works without a recent answer are sent: 300 folders parsed one after another asked about
 * 1, 2, … 300 works before (45,000 works' suggestions worked out for 300).
 */
export function useSuggestions(workUuids: readonly string[]) {
  return useQuery({
    queryKey: ['suggestProducts', workUuids],
    queryFn: async ({ signal }) => {
      const now = Date.now();
      const fresh = (uuid: string) => (answered.get(uuid)?.at ?? -Infinity) > now - KEEP_MS;
      const missing = workUuids.filter((uuid) => !fresh(uuid));
      if (missing.length > 0) for (const [uuid, suggestions] of await suggestProducts(missing, signal)) answered.set(uuid, { at: now, suggestions });
      const out = new Map<string, ProductSuggestion[]>();
      for (const uuid of workUuids) {
        const hit = answered.get(uuid);
        if (hit) out.set(uuid, hit.suggestions);
      }
      return out;
    },
    enabled: workUuids.length > 0,
    staleTime: KEEP_MS,
    placeholderData: (previous) => previous,
  });
}
