import { WebhookResendAnswer } from '@portal/contract/admin-webhooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../lib/http.ts';

/** POST /api/admin/webhooks/deliveries/{id}/resend: the same event (same webhook-id) as a new delivery. */
export async function resendDelivery(id: number) {
  return (await post(`/api/admin/webhooks/deliveries/${id}/resend`, undefined, { schema: WebhookResendAnswer })).data.delivery;
}

export function useResendDelivery() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resendDelivery, onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'webhooks', 'deliveries'] }) });
}
