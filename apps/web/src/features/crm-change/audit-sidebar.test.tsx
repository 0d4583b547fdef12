import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  WORKFLOW_PATHS,
  type ApprovalRecord,
  type DocState,
  type ProcessView,
} from '@portal/contract/workflow';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
}));

import { setAuditSlotTarget } from '../../shared/layout/audit-slot';
import { useSessionStore } from '../../shared/session/session-store';
import { ChangeViewFrame } from './ChangeFrames';
import { INFO_KIND } from './kinds';

const CODE = '000000000042';
const VIEW = {
  docType: INFO_KIND.docType,
  docCode: CODE,
  docState: 'pending',
  procName: '企业信息变更审批',
  status: 'pending',
  startTime: '2026-11-01T02:00:00.000Z',
  endTime: null,
  useTime: 1,
  notic: null,
  steps: [],
} as unknown as ProcessView;
const RECORDS: ApprovalRecord[] = [
  {
    id: 1,
    round: 1,
    step: 0,
    stepName: '提交',
    action: 'submit',
    actorId: 2,
    actorName: '张经办',
    comment: null,
    at: '2026-11-01T02:00:00.000Z',
  },
];

const slow = { timeout: 30_000 };
const EDIT = `/crm/corporation/change-editor/at-info?bizCode=${CODE}`;

/** A 企业信息变更 view frame in `state`, on its audit tab or not, around a stand-in body. */
function renderFrame(audit: boolean, state: DocState) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <ChangeViewFrame kind={INFO_KIND} testId="v" docCode={CODE} state={state} audit={audit} editTo={EDIT}>
          <div>变更内容</div>
        </ChangeViewFrame>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  post.mockReset();
  setAuditSlotTarget(null);
  useSessionStore.setState({ roles: null });
});

describe('website audit sidebar', () => {
  it.each([false, true])(
    'a change view fills it with its approval panel (audit tab: %s)',
    async (audit) => {
      post.mockImplementation((path: string) => {
        if (path === WORKFLOW_PATHS.process) return Promise.resolve(VIEW);
        if (path === WORKFLOW_PATHS.records) return Promise.resolve(RECORDS);
        return Promise.resolve([]);
      });
      const slot = document.createElement('aside');
      slot.setAttribute('data-testid', 'slot');
      document.body.appendChild(slot);
      setAuditSlotTarget(slot);
      renderFrame(audit, 'pending');
      const panel = await within(slot).findByTestId('doc-audit-sidebar', {}, slow);
      expect(await within(panel).findByText('企业信息变更审批', {}, slow)).toBeTruthy();
      expect(await within(panel).findByText('张经办', {}, slow)).toBeTruthy();
      expect(screen.getByText('变更内容')).toBeTruthy();
      slot.remove();
    },
    60_000,
  );
});

describe('a change back with its maker', () => {
  it.each([false, true])(
    'says why at the top and offers 编辑, on either tab (audit tab: %s)',
    async (audit) => {
      useSessionStore.setState({ roles: ['admin'] });
      post.mockImplementation((path: string) => {
        if (path === WORKFLOW_PATHS.process)
          return Promise.resolve({
            ...VIEW,
            docState: 'rejected',
            status: 'rejected',
            currentStep: null,
            rejection: { actorName: '审核员乙', comment: '营业执照已过期', at: '2026-11-02T02:00:00.000Z' },
          });
        if (path === WORKFLOW_PATHS.records) return Promise.resolve(RECORDS);
        return Promise.resolve([]);
      });
      renderFrame(audit, 'rejected');
      const notice = await screen.findByTestId('rejection-notice', {}, slow);
      expect(notice.textContent).toContain('营业执照已过期');
      // Above the change itself.
      expect(
        notice.compareDocumentPosition(screen.getByText('变更内容')) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      await screen.findByTestId('doc-edit', {}, slow);
    },
    60_000,
  );
});
