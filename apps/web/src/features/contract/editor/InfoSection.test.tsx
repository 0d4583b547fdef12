import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { CONTRACT_PATHS, type ContractInfo, type DueView, type SchemeView } from '@portal/contract/contract';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../../shared/request/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../shared/request/http')>()),
  post,
}));

import { renderScreen } from '../../../test/render-screen';
import { CONTRACT_ROUTES } from '../api';
import type { ContractDoc } from './contract-doc';
import { InfoSection } from './InfoSection';

const CODE = '000000000031';
// A draft contract with its plan saved: financing 80,000.00 at a 保证金比例 of 10%, so the rule
// implies a 保证金 of 8,000.00 due on the start date.
const info = {
  bizCode: CODE,
  version: 3,
  state: 'draft',
  contractNo: 'HT-UPFRONT-1',
  recourse: 'with',
  disclosure: 'disclosed',
  product: 'factoring',
  custCode: '000000000001',
  custName: '测试客户',
  coreCompCode: null,
  platCredBizCode: '000000000002',
  lineCode: '000000000003',
  financingRatio: '0.8',
  financingAmount: '80000.00',
  marginRatio: '0.1',
  currency: 'CNY',
  startDate: '2026-01-15',
  maturityDate: '2026-07-15',
  ruleBizCode: '000000000004',
  bankBizCode: '000000000005',
  deptCode: null,
  managerId: null,
  remark: null,
  receivables: [
    {
      invoiceCode: '1100000000',
      invoiceNo: '00000001',
      invoiceDate: '2026-01-01',
      amount: '100000.00',
      debtorName: '债务人甲',
      dueDate: '2026-07-01',
    },
  ],
  payers: [{ payerName: '付款方甲' }],
} as unknown as ContractInfo;
const scheme = {
  contBizCode: CODE,
  rule: { method: 'equalPrincipal' },
  upfrontInterest: '0.00',
  upfrontFee: '0.00',
  items: [{ principal: '80000.00' }],
} as unknown as SchemeView;
const margin = (over: Partial<DueView>): DueView => ({
  id: 7,
  kind: 'margin',
  amount: '8000.00',
  dueDate: '2026-01-15',
  receivedAmount: '0.00',
  remark: null,
  ruleAmount: '8000.00',
  reason: null,
  ...over,
});

// The form renders slowly in jsdom, the more so on a busy machine.
const slow = { timeout: 60_000 };

function renderInfo(dues: DueView[], planned: SchemeView = scheme) {
  post.mockImplementation((path: string) => {
    if (path === CONTRACT_PATHS.schemeView) return Promise.resolve(planned);
    if (path === CONTRACT_PATHS.dueView) return Promise.resolve(dues);
    if (path === CONTRACT_PATHS.init)
      return Promise.resolve({
        custCode: info.custCode,
        custName: info.custName,
        lines: [],
        receivables: [],
      });
    return Promise.resolve([]);
  });
  const save = vi.fn().mockResolvedValue(null);
  const doc: ContractDoc = { bizCode: CODE, info, loading: false, version: 3, editable: true, save };
  renderScreen(<InfoSection doc={doc} fromCredit="" />, `${CONTRACT_ROUTES.editor}?bizCode=${CODE}`);
  return save;
}

afterEach(() => {
  cleanup();
  post.mockReset();
});

describe('基本信息: 保存并提交 checks the implied up-front items first', () => {
  it('names a missing 保证金 in the form and asks nothing of the server', async () => {
    const save = renderInfo([]);
    await waitFor(() => expect(screen.getByDisplayValue('HT-UPFRONT-1')).toBeTruthy(), slow);
    fireEvent.click(screen.getByTestId('submit-info'));
    await waitFor(() => expect(post.mock.calls.map((c) => c[0])).toContain(CONTRACT_PATHS.dueView), slow);
    expect(await screen.findByText(/应收费用缺少「保证金」/, undefined, slow)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  }, 240_000);

  it('refuses a 保证金 changed without a reason, and submits one changed with a reason', async () => {
    const refused = renderInfo([margin({ amount: '7000.00' })]);
    await waitFor(() => expect(screen.getByDisplayValue('HT-UPFRONT-1')).toBeTruthy(), slow);
    fireEvent.click(screen.getByTestId('submit-info'));
    expect(await screen.findByText(/与按规则计算的 .*不一致，请填写原因/, undefined, slow)).toBeTruthy();
    expect(refused).not.toHaveBeenCalled();
    cleanup();

    const sent = renderInfo([margin({ amount: '7000.00', reason: '客户已另行缴纳' })]);
    await waitFor(() => expect(screen.getByDisplayValue('HT-UPFRONT-1')).toBeTruthy(), slow);
    fireEvent.click(screen.getByTestId('submit-info'));
    await waitFor(() => expect(sent).toHaveBeenCalled(), slow);
    expect(sent.mock.calls[0]![0]).toMatchObject({ path: CONTRACT_PATHS.infoSave, body: { submit: true } });
  }, 240_000);
});

describe('基本信息: what the server refuses a save for is said in the form, before the confirmation', () => {
  it('保存并提交 without a saved plan: 请先生成并保存还款计划, and nothing is sent', async () => {
    const save = renderInfo([margin({})], { ...scheme, items: [] } as unknown as SchemeView);
    await waitFor(() => expect(screen.getByDisplayValue('HT-UPFRONT-1')).toBeTruthy(), slow);
    fireEvent.click(screen.getByTestId('submit-info'));
    expect(await screen.findByText('请先生成并保存还款计划', undefined, slow)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  }, 240_000);

  it('保存 with no 应收账款 left: 应收账款不能为空 under the list, and nothing is sent', async () => {
    const save = renderInfo([margin({})]);
    await waitFor(() => expect(screen.getByDisplayValue('HT-UPFRONT-1')).toBeTruthy(), slow);
    fireEvent.click(screen.getByLabelText('删除应收账款'));
    await waitFor(() => expect(screen.queryByLabelText('发票金额')).toBeNull(), slow);
    fireEvent.click(screen.getByTestId('save-info'));
    expect(await screen.findByText('应收账款不能为空', undefined, slow)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  }, 240_000);
});
