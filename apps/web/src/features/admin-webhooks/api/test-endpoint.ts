import { WebhookTestAnswer } from '@portal/contract/admin-webhooks';
import { useMutation } from '@tanstack/react-query';
import { post } from '../../../lib/http.ts';

/** POST /api/admin/webhooks/test: a signed webhook.test event sent now; answers what the receiver said. */
export async function testEndpoint() {
  return (await post('/api/admin/webhooks/test', undefined, { schema: WebhookTestAnswer })).data;
}

export function useTestEndpoint() {
  return useMutation({ mutationFn: testEndpoint });
}
