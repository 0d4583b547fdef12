import { Activity, useState, type ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';

/**
 * A screen as the app shows it at `url`: its own query cache (no retries) and router. The cache
 * is returned with the rendering, for a test to wait on a query's state. With `leadsTo`, the path
 * a screen navigates to (an editor's list after 保存 or 返回) shows an empty page of that test id.
 */
export function renderScreen(screen: ReactElement, url: string, leadsTo?: { path: string; testId: string }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        {leadsTo ? (
          <Routes>
            <Route path={leadsTo.path} element={<div data-testid={leadsTo.testId} />} />
            <Route path="*" element={screen} />
          </Routes>
        ) : (
          screen
        )}
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}

/**
 * A screen as a kept tab (docs/architecture.md "Editors keep their input"): inside React's
 * `<Activity>`, hidden and shown again by the test through `show`. `staleTime` as the app's.
 */
export function renderKept(screen: ReactElement, url: string, staleTime = 0) {
  let show: (visible: boolean) => void = () => undefined;
  function Kept() {
    const [visible, setVisible] = useState(true);
    show = setVisible;
    return <Activity mode={visible ? 'visible' : 'hidden'}>{screen}</Activity>;
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Kept />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client, show: (visible: boolean) => show(visible) };
}
