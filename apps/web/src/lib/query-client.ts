import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './http.ts';

/**
 * One cache for the whole app. A 4xx will not change on retry, and a network failure has
 * already been shown to the customer: retry only 5xx answers, once.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => failureCount < 1 && isApiError(error) && error.status >= 500,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
