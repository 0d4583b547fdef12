import '../../../test/jsdom';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useSessionStore } from '../../../shared/session/session-store';
import { generateRoutes, resetRoutes } from '../../router/access-store';
import WebsiteLayout from './WebsiteLayout';

function Where() {
  const l = useLocation();
  return <div data-testid="where">{`${l.pathname}${l.search}`}</div>;
}

function List() {
  const navigate = useNavigate();
  return (
    <>
      <Where />
      <button onClick={() => void navigate('/crm/corporation/view/corporation?compCode=000000000001')}>
        打开记录
      </button>
    </>
  );
}

afterEach(() => {
  cleanup();
  resetRoutes();
  useSessionStore.setState({ roles: null });
});

describe('website layout 返回', () => {
  it('returns to the list the record was opened from, not back through the tabs', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    generateRoutes(['admin']);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/crm/corporation/list?compName=测试']}>
          <Routes>
            <Route element={<WebsiteLayout />}>
              <Route path="/crm/corporation/list" element={<List />} />
              <Route path="/crm/corporation/view/:tab" element={<Where />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(await screen.findByText('打开记录'));
    const tabs = await screen.findByTestId('website-tabs');
    // Walk through two more tabs of the record.
    fireEvent.click(within(tabs).getByText('审核信息'));
    expect(screen.getByTestId('where').textContent).toContain('/crm/corporation/view/approval');
    fireEvent.click(within(tabs).getByText('企业用户'));
    fireEvent.click(within(screen.getByTestId('website-tabs')).getByRole('button', { name: /返\s*回/ }));
    expect(screen.getByTestId('where').textContent).toBe('/crm/corporation/list?compName=测试');
  }, 60_000);

  it('a record opened directly returns to the list it belongs to', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    generateRoutes(['admin']);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/fc/fc-editor/basic-info?bizCode=000000000001&subject=cust']}>
          <Routes>
            <Route element={<WebsiteLayout />}>
              <Route path="*" element={<Where />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(
      within(await screen.findByTestId('website-tabs')).getByRole('button', { name: /返\s*回/ }),
    );
    expect(screen.getByTestId('where').textContent).toBe('/fc/fc');
  }, 60_000);
});
