import type { CustomerLocation } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { isApiError, post } from '../../../lib/http.ts';

/**
 * POST /api/customer-locations/byCondition with the conditions of ../shared/spec/decisions.md §6: the hub's default
 * address, newest first; null when the hub has none. `silent`: a failure has its own message
 * (`addressFailureText`).
 */
export async function getDefaultAddress(customerHubId: number, signal?: AbortSignal): Promise<CustomerLocation | null> {
  const { data } = await post<CustomerLocation[]>(
    '/api/customer-locations/byCondition',
    {
      items: [
        { field: 'customerHubId', operator: 'equals', value: customerHubId },
        { field: 'isDefault', operator: 'equals', value: true },
      ],
      page: 0,
      size: 10,
      sort: 'id,desc',
    },
    { signal, silent: true },
  );
  return Array.isArray(data) ? (data[0] ?? null) : null;
}

/** ../shared/spec/product-spec.md §8: the server's message when it sent one, otherwise 客户地址获取失败. */
export function addressFailureText(error: unknown): string {
  if (isApiError(error) && error.status > 0) {
    const body = error.body as { message?: unknown } | undefined;
    if (typeof body?.message === 'string' && body.message) return body.message;
  }
  return MSG.addressFetchFailed;
}
