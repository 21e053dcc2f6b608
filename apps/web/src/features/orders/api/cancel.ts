import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../lib/http.ts';

/** POST /api/sales_order/{so}/cancel: only while 待处理; a 409 says why not (in Chinese). */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (salesOrderNumber: string) =>
      (await post<{ statusText: string }>(`/api/sales_order/${encodeURIComponent(salesOrderNumber)}/cancel`, {})).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['orders'] }),
  });
}
