import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation, useNavigate, type RouteObject } from 'react-router';
import { useSessionStore } from '../../../shared/session/session-store';
import { generateRoutes, resetRoutes } from '../../router/access-store';
import { Form, Input } from 'antd';
import { clearUnsaved, DISCARD_MESSAGE } from '../../../shared/editor/unsaved';
import { UnsavedInput } from '../../../shared/editor/UnsavedInput';
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

/** The website layout over `children` at `url`, in a data router as the app's (its guard blocks). */
function renderAt(url: string, children: RouteObject[]) {
  const router = createMemoryRouter([{ element: <WebsiteLayout />, children }], { initialEntries: [url] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The location the page on screen sees (the record's other tabs stay mounted, hidden). */
function where(): string {
  const shown = screen
    .getAllByTestId('where')
    .filter((el) => !el.closest<HTMLElement>('.keep-alive-page')?.style.display.includes('none'));
  expect(shown).toHaveLength(1);
  return shown[0]!.textContent ?? '';
}

/** 基本信息 of the record: a form under the unsaved-input guard, as an editor's. */
function Basic() {
  return (
    <UnsavedInput>
      <Form name="guard-basic">
        <Form.Item name="contactEmail" label="联系邮箱">
          <Input />
        </Form.Item>
      </Form>
    </UnsavedInput>
  );
}

afterEach(() => {
  cleanup();
  resetRoutes();
  clearUnsaved();
  useSessionStore.setState({ roles: null });
});

describe('website layout 返回', () => {
  it('returns to the list the record was opened from, not back through the tabs', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    generateRoutes(['admin']);
    renderAt('/crm/corporation/list?compName=测试', [
      { path: '/crm/corporation/list', element: <List /> },
      { path: '/crm/corporation/view/:tab', element: <Where /> },
    ]);
    fireEvent.click(await screen.findByText('打开记录'));
    const tabs = await screen.findByTestId('website-tabs');
    // Walk through two more tabs of the record.
    fireEvent.click(within(tabs).getByText('审核信息'));
    await waitFor(() => expect(where()).toContain('/crm/corporation/view/approval'));
    fireEvent.click(within(tabs).getByText('企业用户'));
    fireEvent.click(within(screen.getByTestId('website-tabs')).getByRole('button', { name: /返\s*回/ }));
    await waitFor(() => expect(where()).toBe('/crm/corporation/list?compName=测试'));
  }, 60_000);

  it('a record opened directly returns to the list it belongs to', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    generateRoutes(['admin']);
    renderAt('/fc/fc-editor/basic-info?bizCode=000000000001&subject=cust', [
      { path: '*', element: <Where /> },
    ]);
    fireEvent.click(
      within(await screen.findByTestId('website-tabs')).getByRole('button', { name: /返\s*回/ }),
    );
    await waitFor(() => expect(where()).toBe('/fc/fc'));
  }, 60_000);
});

describe('website layout: a record’s tabs', () => {
  it('keep typed input while the user moves among them; leaving the record with it asks', async () => {
    useSessionStore.setState({ roles: ['admin'] });
    generateRoutes(['admin']);
    const router = renderAt('/crm/corporation/edit/corporation?compCode=000000000001', [
      { path: '/crm/corporation/list', element: <Where /> },
      { path: '/crm/corporation/edit/corporation', element: <Basic /> },
      { path: '/crm/corporation/edit/:tab', element: <Where /> },
    ]);
    const email = (await screen.findByLabelText('联系邮箱')) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'guard@example.com' } });
    const tabs = await screen.findByTestId('website-tabs');
    fireEvent.click(within(tabs).getByText('企业用户'));
    await waitFor(() => expect(where()).toContain('/crm/corporation/edit/employee'));
    fireEvent.click(within(tabs).getByText('基本信息'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/crm/corporation/edit/corporation'));
    expect((screen.getByLabelText('联系邮箱') as HTMLInputElement).value).toBe('guard@example.com');

    // 返回 would let the record's pages go: it asks, and 取消 stays.
    fireEvent.click(within(tabs).getByRole('button', { name: /返\s*回/ }));
    await screen.findByText(DISCARD_MESSAGE, {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText(DISCARD_MESSAGE)).toBeNull());
    expect(router.state.location.pathname).toBe('/crm/corporation/edit/corporation');
    expect((screen.getByLabelText('联系邮箱') as HTMLInputElement).value).toBe('guard@example.com');
  }, 60_000);
});
