import { QueryClient } from '@tanstack/react-query';
import { refreshListsOnUpdate } from '../shared/list/list-query';

/** One cache for the app. Errors were already shown by the request layer: no automatic retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// Every successful change refreshes the lists: a row action on a row shown with its old version
// would otherwise answer 409 数据已被他人修改 on the next action.
refreshListsOnUpdate(queryClient);
