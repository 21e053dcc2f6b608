import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';
import { useAccount } from './account.ts';

export interface CustomerHubLite {
  id: number;
  name: string;
  batchAddressParsing: boolean;
}

/** GET /api/customer-hubs/getLite/{customerHubId}: the hub's name and its batchAddressParsing flag. */
export async function getCustomerHubLite(customerHubId: number, signal?: AbortSignal): Promise<CustomerHubLite> {
  const { data } = await get<CustomerHubLite>(`/api/customer-hubs/getLite/${customerHubId}`, { signal });
  return data;
}

/**
 * The logged-in customer's hub; waits for the account. Read again whenever a page that uses it opens: the shop may
 * switch the hub's way of delivery at any time, and 返回修改 after an order refused for it showed the batch page as
 * it was, without the addresses to fill (LAN re-walk, 2026-12-01).
 */
export function useCustomerHub() {
  const account = useAccount();
  const customerHubId = account.data?.customerHubId;
  return useQuery({
    queryKey: ['customer-hub', 'lite', customerHubId],
    queryFn: ({ signal }) => getCustomerHubLite(customerHubId as number, signal),
    enabled: customerHubId !== undefined,
    staleTime: 5 * 60_000,
    refetchOnMount: 'always',
  });
}
