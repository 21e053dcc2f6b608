import type { OrderLocation } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useState } from 'react';
import { addressFailureText, getDefaultAddress } from '../api/default-address.ts';
import { locationOfCustomer } from '../location.ts';

/** The hub's default address, fetched afresh each time it is asked (the customer may have changed it elsewhere). */
const defaultAddressQuery = (customerHubId: number) => ({
  queryKey: ['default-address', customerHubId],
  queryFn: ({ signal }: { signal: AbortSignal }) => getDefaultAddress(customerHubId, signal),
  staleTime: 0,
});

/**
 * 统一设置地址 (../shared/spec/product-spec.md §2, §5): fetches the hub's default address afresh (the customer may
 * have changed it elsewhere) and hands it to `apply`, which decides which rows take it (and closes
 * their open editors, which would show what the rows no longer hold). No default address:
 * 客户没有设置默认地址; a failed fetch: the server's message or 客户地址获取失败.
 */
export function useFillDefaultAddress(customerHubId: number | undefined) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  const fill = useCallback(
    async (apply: (location: OrderLocation) => void) => {
      if (customerHubId === undefined) return;
      setPending(true);
      try {
        const found = await queryClient.fetchQuery(defaultAddressQuery(customerHubId));
        if (!found) {
          void message.warning(MSG.noDefaultAddress);
          return;
        }
        apply(locationOfCustomer(found));
      } catch (error) {
        void message.error(addressFailureText(error));
      } finally {
        setPending(false);
      }
    },
    [customerHubId, message, queryClient],
  );

  return { fill, pending };
}

/**
 * The hub's default address, where a Unified batch without an address of its own goes: /payment1 shows it, and says
 * before 提交订单 when there is none (it read 客户默认收货地址 and the order was refused: LAN walk, 2026-11-30).
 */
export function useDefaultAddress(customerHubId: number, enabled: boolean) {
  return useQuery({ ...defaultAddressQuery(customerHubId), enabled });
}
