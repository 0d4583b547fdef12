import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';

/**
 * A screen as the app shows it at `url`: its own query cache (no retries) and router. The cache
 * is returned with the rendering, for a test to wait on a query's state.
 */
export function renderScreen(screen: ReactElement, url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>{screen}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
