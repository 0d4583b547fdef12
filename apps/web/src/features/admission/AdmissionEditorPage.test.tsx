import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ADMISSION_PATHS, type AdmissionView } from '@portal/contract/admission';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
}));

import type { RouteMeta } from '../../shared/routing/route-table';
import { renderKept } from '../../test/render-screen';
import { clearUnsaved } from '../../shared/editor/unsaved';
import AdmissionEditorPage from './AdmissionEditorPage';
import { ADMISSION_ROUTES } from './api';

/**
 * 客户准入's editor keeps typed input when its tab is hidden and shown again (docs/architecture.md
 * "Editors keep their input"): a kept page runs its effects again when it shows, so a form filled
 * or reset from a plain effect lost what was typed.
 */
const BIZ = '000000000031';
const saved = {
  bizCode: BIZ,
  version: 1,
  state: 'draft',
  compCode: '000000000001',
  compName: '准入测试有限公司',
  legalIdNo: '310101199001011234',
  controllerName: '张三 100%',
  bankBizCode: '000000000005',
  remark: null,
  files: {},
} as unknown as AdmissionView;

let show: (visible: boolean) => void = () => undefined;

function renderAt(url: string) {
  post.mockImplementation((path: string) =>
    Promise.resolve(
      path === ADMISSION_PATHS.view ? saved : path.endsWith('/dict') ? [] : { list: [], total: 0 },
    ),
  );
  ({ show } = renderKept(
    <AdmissionEditorPage meta={{ path: ADMISSION_ROUTES.editor, title: '客户准入' } as RouteMeta} />,
    url,
  ));
}

afterEach(() => {
  cleanup();
  post.mockReset();
  clearUnsaved();
});

const slow = { timeout: 30_000 };
const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

describe('客户准入 editor: typed input survives its tab being hidden and shown', { timeout: 90_000 }, () => {
  it('a new one', async () => {
    renderAt(`${ADMISSION_ROUTES.editor}?compCode=000000000001`);
    await screen.findByLabelText('实际控制人/受益所有人', undefined, slow);
    fireEvent.change(screen.getByLabelText('实际控制人/受益所有人'), { target: { value: '李四 60%' } });
    fireEvent.change(screen.getByLabelText('法定代表人身份证号'), {
      target: { value: '310101199001011234' },
    });
    act(() => show(false));
    act(() => show(true));
    await waitFor(() => expect(value('实际控制人/受益所有人')).toBe('李四 60%'));
    expect(value('法定代表人身份证号')).toBe('310101199001011234');
  });

  it('a saved draft: the record is not put back over the typed input', async () => {
    renderAt(`${ADMISSION_ROUTES.editor}?bizCode=${BIZ}`);
    await waitFor(() => expect(value('实际控制人/受益所有人')).toBe('张三 100%'), slow);
    fireEvent.change(screen.getByLabelText('实际控制人/受益所有人'), { target: { value: '王五 51%' } });
    act(() => show(false));
    act(() => show(true));
    await waitFor(() => expect(screen.getByLabelText('实际控制人/受益所有人')).toBeTruthy());
    expect(value('实际控制人/受益所有人')).toBe('王五 51%');
  });
});
