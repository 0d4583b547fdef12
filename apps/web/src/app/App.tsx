import { lazy, Suspense, useState } from 'react';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { useLoadingStore } from '../shared/request/loading-store';
import { queryClient } from './query-client';
import { router } from './router/router';

// antd's overlay, loaded the first time a request asks for it (the login page runs without antd).
const GlobalLoading = lazy(() => import('./layout/common/GlobalLoading'));

function LoadingOverlay() {
  const pending = useLoadingStore((s) => s.pending);
  // Once wanted, kept mounted: the overlay shows and hides itself (with its delay) from then on.
  const [wanted, setWanted] = useState(false);
  if (pending > 0 && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <GlobalLoading />
    </Suspense>
  ) : null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <LoadingOverlay />
    </QueryClientProvider>
  );
}
