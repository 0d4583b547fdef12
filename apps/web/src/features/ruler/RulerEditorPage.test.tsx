import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_PATHS } from '@portal/contract/auth';
import { RULER_PATHS } from '@portal/contract/ruler';
import type { RouteMeta } from '../../shared/routing/route-table';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));
// The preview (and its canvas chart, which jsdom cannot draw) is covered by the browser test and
// by plan-preview's unit tests; here it is a stub.
vi.mock('./PlanPreview', () => ({ PlanPreview: () => <div data-testid="plan-preview" /> }));

import { renderScreen } from '../../test/render-screen';
import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import { useSessionStore } from '../../shared/session/session-store';
import { buttonsQueryKey } from '../../shared/permission/use-buttons';
import { RULER_MENU } from './api';
import RulerEditorPage from './RulerEditorPage';
import { SAMPLE_RULE } from './sample-rule.test-data';

const view = SAMPLE_RULE;

const meta = { path: '/factoring/config/ruler-editor', title: '计息规则编辑' } as RouteMeta;

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

function renderEditor(buttons: string[], url: string) {
  post.mockImplementation((path: string) => {
    if (path === AUTH_PATHS.buttons) return Promise.resolve(buttons);
    if (path === RULER_PATHS.view) return Promise.resolve(view);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  useSessionStore.setState({ roles: ['ft-ruler'] });
  const { client } = renderScreen(<RulerEditorPage meta={meta} />, url);
  /** Resolves once the button codes have been read (absent buttons are then really absent). */
  const buttonsLoaded = () =>
    waitFor(() => expect(client.getQueryState(buttonsQueryKey(RULER_MENU))?.status).toBe('success'), slow);
  return { buttonsLoaded };
}

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  clearUnsaved();
  useSessionStore.setState({ roles: null });
});

const button = (name: RegExp) => screen.queryByRole('button', { name });

describe(
  'rule editor buttons follow the button codes (ft-ruler:add/save/delete)',
  { timeout: 120_000 },
  () => {
    it('without ft-ruler:save the rule is read-only: no 保存, the fields are disabled', async () => {
      renderEditor(['ft-ruler:delete'], '/factoring/config/ruler-editor?bizCode=000000000007');
      expect(await screen.findByDisplayValue('按月付息 7.2%', {}, slow)).toBeTruthy();
      expect(await screen.findByRole('button', { name: /删\s*除/ }, slow)).toBeTruthy();
      expect(button(/保\s*存/)).toBeNull();
      expect((screen.getByDisplayValue('按月付息 7.2%') as HTMLInputElement).disabled).toBe(true);
      // the rate is shown as a percentage
      expect(screen.getByDisplayValue('7.20')).toBeTruthy();
      expect(post).toHaveBeenCalledWith(RULER_PATHS.view, undefined, { query: { bizCode: '000000000007' } });
    });

    it('with ft-ruler:save an existing rule can be saved but not deleted without ft-ruler:delete', async () => {
      const { buttonsLoaded } = renderEditor(
        ['ft-ruler:save'],
        '/factoring/config/ruler-editor?bizCode=000000000007',
      );
      expect(await screen.findByRole('button', { name: /保\s*存/ }, slow)).toBeTruthy();
      await buttonsLoaded();
      expect(button(/删\s*除/)).toBeNull();
      expect((screen.getByDisplayValue('按月付息 7.2%') as HTMLInputElement).disabled).toBe(false);
    });

    it('a new rule needs ft-ruler:add (ft-ruler:save alone is not enough)', async () => {
      const { buttonsLoaded } = renderEditor(['ft-ruler:save'], '/factoring/config/ruler-editor');
      expect(await screen.findByText('新增计息规则', {}, slow)).toBeTruthy();
      await screen.findByTestId('plan-preview', {}, slow);
      await buttonsLoaded();
      expect(button(/保\s*存/)).toBeNull();
      cleanup();
      renderEditor(['ft-ruler:add'], '/factoring/config/ruler-editor');
      expect(await screen.findByRole('button', { name: /保\s*存/ }, slow)).toBeTruthy();
    });
  },
);

describe('rule editor on the editor frame', { timeout: 120_000 }, () => {
  it('checks a new rule with the shared schema before anything is sent, and marks typed input unsaved', async () => {
    renderEditor(['ft-ruler:add'], '/factoring/config/ruler-editor');
    const save = await screen.findByRole('button', { name: /保\s*存/ }, slow);
    expect(isDirty(meta.path)).toBe(false);
    fireEvent.change(screen.getByLabelText('规则名称'), { target: { value: '  ' } });
    expect(isDirty(meta.path)).toBe(true);
    fireEvent.click(save);
    expect(await screen.findByText('规则名称不能为空', {}, slow)).toBeTruthy();
    // 年利率 is blank in a new rule: the field says so (the preview, a stub here, too).
    expect(await screen.findByText('年利率不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  });
});
