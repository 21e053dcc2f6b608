import { WebhookEndpointAnswer, type WebhookEndpointBody } from '@portal/contract/admin-webhooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, request } from '../../../lib/http.ts';

/** GET /api/admin/webhooks/endpoint: the endpoint (null when none is set). */
export async function getEndpoint(signal?: AbortSignal) {
  return (await get('/api/admin/webhooks/endpoint', { signal, schema: WebhookEndpointAnswer })).data.endpoint;
}

export function useWebhookEndpoint() {
  return useQuery({ queryKey: ['admin', 'webhooks', 'endpoint'], queryFn: ({ signal }) => getEndpoint(signal) });
}

/** PUT /api/admin/webhooks/endpoint: URL and secret (a new whsec_ secret when left empty). */
export async function saveEndpoint(body: WebhookEndpointBody) {
  return (await request('PUT', '/api/admin/webhooks/endpoint', { body: JSON.stringify(body), contentType: 'application/json', schema: WebhookEndpointAnswer })).data.endpoint;
}

export function useSaveEndpoint() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveEndpoint, onSuccess: (endpoint) => client.setQueryData(['admin', 'webhooks', 'endpoint'], endpoint) });
}

/** DELETE /api/admin/webhooks/endpoint: no endpoint, so no new deliveries (those logged stay). */
export async function removeEndpoint() {
  await request('DELETE', '/api/admin/webhooks/endpoint');
}

export function useRemoveEndpoint() {
  const client = useQueryClient();
  return useMutation({ mutationFn: removeEndpoint, onSuccess: () => client.setQueryData(['admin', 'webhooks', 'endpoint'], null) });
}
