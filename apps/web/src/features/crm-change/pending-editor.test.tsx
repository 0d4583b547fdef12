import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { COMP_CHANGE_PATHS, COMP_MANAGER_PATHS } from '@portal/contract/crm-change';
import type { DocState } from '@portal/contract/workflow';
import type { RouteMeta } from '../../shared/routing/route-table';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
}));

import { CHANGE_ROUTES, MANAGER_ROUTES } from './api';
import { InfoChangeEditorPage } from './InfoChangeEditorPage';
import { ManagerChangeEditorPage } from './ManagerChangePages';

const slow = { timeout: 30_000 };
const CODE = '000000000042';

function Where() {
  const l = useLocation();
  return <div data-testid="view">{`${l.pathname}${l.search}`}</div>;
}

function renderAt(url: string, state: DocState) {
  const change = {
    bizCode: CODE,
    compCode: '000000000001',
    compName: '变更测试有限公司',
    state,
    version: 2,
    reason: null,
    before: { compName: '变更测试有限公司' },
    after: { compName: '变更测试有限公司' },
  };
  post.mockImplementation((path: string) => {
    if (path === COMP_CHANGE_PATHS.view || path === COMP_MANAGER_PATHS.view) return Promise.resolve(change);
    return Promise.resolve([]);
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const infoMeta = { path: `${CHANGE_ROUTES.editor}/at-info`, title: '企业信息变更编辑' } as RouteMeta;
  const mgrMeta = { path: MANAGER_ROUTES.edit, title: '管理员变更编辑' } as RouteMeta;
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route
            path={`${CHANGE_ROUTES.editor}/at-info`}
            element={<InfoChangeEditorPage meta={infoMeta} />}
          />
          <Route path={MANAGER_ROUTES.edit} element={<ManagerChangeEditorPage meta={mgrMeta} />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('the editor URL of a change pending approval', () => {
  it('企业信息变更: goes to the read-only view', async () => {
    renderAt(`${CHANGE_ROUTES.editor}/at-info?bizCode=${CODE}`, 'pending');
    expect((await screen.findByTestId('view', {}, slow)).textContent).toBe(
      `${CHANGE_ROUTES.view}/after?bizCode=${CODE}`,
    );
  }, 60_000);

  it('管理员变更: goes to the read-only view', async () => {
    renderAt(`${MANAGER_ROUTES.edit}?bizCode=${CODE}`, 'pending');
    expect((await screen.findByTestId('view', {}, slow)).textContent).toBe(
      `${MANAGER_ROUTES.view}?bizCode=${CODE}`,
    );
  }, 60_000);

  it('a rejected change stays in its editor', async () => {
    renderAt(`${MANAGER_ROUTES.edit}?bizCode=${CODE}`, 'rejected');
    expect(await screen.findByTestId('manager-change-editor', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('view')).toBeNull();
  }, 60_000);
});
