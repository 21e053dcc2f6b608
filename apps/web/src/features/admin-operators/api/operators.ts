import type { AdminOperator } from '@portal/contract/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../../lib/http.ts';

const KEY = ['admin', 'operators'] as const;

/** GET /api/admin/operators */
export function useOperators() {
  return useQuery({ queryKey: KEY, queryFn: async ({ signal }) => (await get<AdminOperator[]>('/api/admin/operators', { signal })).data, staleTime: 0 });
}

export type OperatorInput = { login: string; password: string };

/** Every change of the staff logins page; each refreshes the list. Refusals come back in Chinese. */
export function useOperatorMutations() {
  const queryClient = useQueryClient();
  const after = { onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }) };
  return {
    add: useMutation({ mutationFn: (b: OperatorInput) => post<AdminOperator>('/api/admin/operators', b), ...after }),
    resetPassword: useMutation({ mutationFn: ({ id, password }: { id: number; password: string }) => post<AdminOperator>(`/api/admin/operators/${id}/password`, { password }), ...after }),
    setDisabled: useMutation({ mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) => post<AdminOperator>(`/api/admin/operators/${id}/disabled`, { disabled }), ...after }),
  };
}
