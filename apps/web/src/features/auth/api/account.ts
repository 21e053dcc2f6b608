import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

export interface Account {
  login: string;
  customerId: number;
  customerHubId: number;
  authorities: string[];
}

export const accountQueryKey = ['account'] as const;

/** GET /api/account: who is logged in, and the customer hub every call is scoped to. */
export async function getAccount(signal?: AbortSignal): Promise<Account> {
  const { data } = await get<Account>('/api/account', { signal });
  return data;
}

export function useAccount(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: ({ signal }) => getAccount(signal),
    staleTime: Infinity,
    enabled: options.enabled ?? true,
  });
}
