import { QueryClient } from '@tanstack/react-query';

/** One cache for the app. Errors were already shown by the request layer: no automatic retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
