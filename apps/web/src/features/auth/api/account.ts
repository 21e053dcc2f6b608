import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

/** GET /api/account as it answers: an operator has no customer and no hub. */
export interface AnyAccount {
  login: string;
  customerId: number | null;
  customerHubId: number | null;
  authorities: string[];
}

/** A customer's account: every call is scoped to its hub. */
export interface Account extends AnyAccount {
  customerId: number;
  customerHubId: number;
}

export const ROLE_OPERATOR = 'ROLE_OPERATOR';
export const isOperator = (a: AnyAccount | undefined | null) => a?.authorities.includes(ROLE_OPERATOR) ?? false;
const asCustomer = (a: AnyAccount): Account | null =>
  a.customerId === null || a.customerHubId === null ? null : { ...a, customerId: a.customerId, customerHubId: a.customerHubId };

export const accountQueryKey = ['account'] as const;

/** GET /api/account: who is logged in, and the customer hub every call is scoped to. */
export async function getAccount(signal?: AbortSignal): Promise<AnyAccount> {
  const { data } = await get<AnyAccount>('/api/account', { signal });
  return data;
}

/** The customer's account (null for an operator), for the customer's pages. */
export function useAccount(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: ({ signal }) => getAccount(signal),
    select: asCustomer,
    staleTime: Infinity,
    enabled: options.enabled ?? true,
  });
}

/** Whoever is logged in, customer or operator (login page, guards). */
export function useAnyAccount(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: ({ signal }) => getAccount(signal),
    staleTime: Infinity,
    enabled: options.enabled ?? true,
  });
}
