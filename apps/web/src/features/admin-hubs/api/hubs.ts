import type { AdminAddressRow, AdminHub, AdminLogin } from '@portal/contract/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post, request } from '../../../lib/http.ts';

const json = (method: string, path: string, body?: unknown) =>
  request(method, path, { body: body === undefined ? undefined : JSON.stringify(body), contentType: body === undefined ? undefined : 'application/json' });

/** GET /api/admin/hubs */
export function useHubs() {
  return useQuery({ queryKey: ['admin', 'hubs'], queryFn: async ({ signal }) => (await get<AdminHub[]>('/api/admin/hubs', { signal })).data, staleTime: 0 });
}
/** GET /api/admin/hubs/{id}/logins */
export function useLogins(hubId: number) {
  return useQuery({ queryKey: ['admin', 'hubs', hubId, 'logins'], queryFn: async ({ signal }) => (await get<AdminLogin[]>(`/api/admin/hubs/${hubId}/logins`, { signal })).data, staleTime: 0 });
}
/** GET /api/admin/hubs/{id}/addresses */
export function useAddresses(hubId: number) {
  return useQuery({ queryKey: ['admin', 'hubs', hubId, 'addresses'], queryFn: async ({ signal }) => (await get<AdminAddressRow[]>(`/api/admin/hubs/${hubId}/addresses`, { signal })).data, staleTime: 0 });
}

export type HubInput = { name: string; batchAddressParsing: boolean; customerName?: string };
export type LoginInput = { login: string; password: string; customerName?: string };
export type AddressInput = Omit<AdminAddressRow, 'id' | 'hubId'>;

/** Every change of the hubs page; each refreshes the console's lists. Refusals come back in Chinese. */
export function useHubMutations() {
  const queryClient = useQueryClient();
  const after = { onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'hubs'] }) };
  return {
    createHub: useMutation({ mutationFn: (b: HubInput) => post('/api/admin/hubs', b), ...after }),
    updateHub: useMutation({ mutationFn: ({ id, ...b }: Partial<HubInput> & { id: number }) => json('PATCH', `/api/admin/hubs/${id}`, b), ...after }),
    addLogin: useMutation({ mutationFn: ({ hubId, ...b }: LoginInput & { hubId: number }) => post(`/api/admin/hubs/${hubId}/logins`, b), ...after }),
    resetPassword: useMutation({ mutationFn: ({ id, password }: { id: number; password: string }) => post(`/api/admin/logins/${id}/password`, { password }), ...after }),
    setDisabled: useMutation({ mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) => post(`/api/admin/logins/${id}/disabled`, { disabled }), ...after }),
    addAddress: useMutation({ mutationFn: ({ hubId, ...b }: AddressInput & { hubId: number }) => post(`/api/admin/hubs/${hubId}/addresses`, b), ...after }),
    updateAddress: useMutation({ mutationFn: ({ id, ...b }: AddressInput & { id: number }) => json('PUT', `/api/admin/addresses/${id}`, b), ...after }),
    removeAddress: useMutation({ mutationFn: (id: number) => json('DELETE', `/api/admin/addresses/${id}`), ...after }),
  };
}
