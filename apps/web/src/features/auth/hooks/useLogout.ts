import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clearToken } from '../../../lib/auth-token.ts';

/** Forgets the token and everything cached for this customer, then shows the login page. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearToken();
    // Navigate first: clearing the cache while guarded pages are mounted would refetch them.
    void Promise.resolve(navigate('/login', { replace: true })).then(() => queryClient.clear());
  }, [navigate, queryClient]);
}
