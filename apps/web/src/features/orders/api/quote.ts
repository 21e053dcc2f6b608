import type { QuoteAnswer } from '@portal/contract/api';
import { useQuery } from '@tanstack/react-query';
import { post } from '../../../lib/http.ts';
import type { QuoteWork } from '../lib/bodies.ts';

/** The answer's message, typed from the contract's schema (types only: no zod in the browser bundle). */
export type Quote = (typeof QuoteAnswer)['_zod']['output']['message'];
export type QuoteLine = Quote['lines'][number];

/** POST /api/sales_order/quote: the server's prices and the problem of each work, without ordering. */
export async function getQuote(works: readonly QuoteWork[], signal?: AbortSignal): Promise<Quote> {
  const { data } = await post<{ state: number; message: Quote }>('/api/sales_order/quote', { works }, { signal });
  return data.message;
}

/** One quote per draft (its idempotency key names it); asked again when /payment1 opens. */
export function useQuote(draftKey: string | undefined, works: readonly QuoteWork[]) {
  return useQuery({
    queryKey: ['quote', draftKey],
    queryFn: ({ signal }) => getQuote(works, signal),
    enabled: draftKey !== undefined && works.length > 0,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
