import { renderScreen } from '../../test/render-screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { COMPANY_INFO_DICT, COMPANY_PATHS, type CompanyView } from '@portal/contract/company';
import { GEO_PATHS } from '@portal/contract/geo';

const post = vi.hoisted(() => vi.fn());
const update = vi.hoisted(() => vi.fn());
vi.mock('../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/request/http')>()),
  post,
  update,
}));

import { clearUnsaved, isDirty } from '../../shared/editor/unsaved';
import CompanyEditorPage, { COMPANY_LIST_PATH } from './CompanyEditorPage';
import type { RouteMeta } from '../../shared/routing/route-table';

const EDITOR = '/factoring/config/company-editor';

const view: CompanyView = {
  compCode: '000000000005',
  companyBizCode: '000000000005',
  compName: '编辑测试供应链有限公司',
  usccCode: '91310115MA1K4AAA1X',
  compType: 'private',
  roles: ['supplier'],
  legalPerson: '张三',
  regCapital: '1000000.00',
  establishDate: null,
  provinceCode: '310000',
  cityCode: '310100',
  areaCode: '310115',
  regionName: '上海市 / 市辖区 / 浦东新区',
  address: null,
  industry: null,
  contactName: null,
  contactPhone: null,
  contactEmail: null,
  parentCompCode: null,
  parentCompName: null,
  state: 'enabled',
  admission: 'admitted',
  admissionCode: null,
  remark: null,
  version: 3,
  createdAt: '2026-01-01 00:00:00',
  updatedAt: '2026-01-01 00:00:00',
  files: [],
};

// antd forms render slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 30_000 };

const meta = { path: EDITOR, title: '企业客户编辑' } as RouteMeta;

function renderEditor() {
  post.mockImplementation((path: string) => {
    if (path === COMPANY_PATHS.view) return Promise.resolve(view);
    if (path === COMPANY_PATHS.infoDict) return Promise.resolve(COMPANY_INFO_DICT);
    if (path === GEO_PATHS.linkage) return Promise.resolve([]);
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  renderScreen(<CompanyEditorPage meta={meta} />, `${EDITOR}?compCode=${view.compCode}`, {
    path: COMPANY_LIST_PATH,
    testId: 'company-list',
  });
}

afterEach(() => {
  cleanup();
  post.mockReset();
  update.mockReset();
  clearUnsaved();
});

describe('企业客户编辑 on the editor frame', { timeout: 90_000 }, () => {
  it('has one 返回, the frame’s, and it leads to the list', async () => {
    renderEditor();
    const name = (await screen.findByLabelText('企业名称', {}, slow)) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe(view.compName), slow);
    const backs = screen.getAllByRole('button', { name: /返\s*回/ });
    expect(backs).toHaveLength(1);
    // In the frame's header, beside 保存, not at the foot of the form.
    expect(backs[0]!.closest('[data-testid="company-editor"] .ant-card-extra')).not.toBeNull();
    fireEvent.click(backs[0]!);
    expect(await screen.findByTestId('company-list', {}, slow)).toBeTruthy();
  });

  it('marks the page unsaved when a field is typed in, not when it is loaded', async () => {
    renderEditor();
    const name = (await screen.findByLabelText('企业名称', {}, slow)) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe(view.compName), slow);
    expect(isDirty(EDITOR)).toBe(false);
    fireEvent.change(name, { target: { value: '' } });
    expect(isDirty(EDITOR)).toBe(true);
    // The schema's own message, and nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('企业名称不能为空', {}, slow)).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
  });
});
