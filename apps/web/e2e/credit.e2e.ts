import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMPANY_PATHS, type CompanyAdd } from '@portal/contract/company';
import { usccCheckChar } from '@portal/contract/uscc';
import { CONTRACT_PATHS, type ContractInit } from '@portal/contract/contract';
import { RULER_PATHS } from '@portal/contract/ruler';
import { activePage, base, launchBrowser, login, newPage, shotPath, tokenOf } from './helpers';
import {
  addChecker,
  admitCustomer,
  approve,
  clickTab,
  confirm,
  data,
  loginAs,
  openScreen,
  pick,
  today,
} from './flows';

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = String(Date.now()).slice(-6);

async function addCompany(token: string, name: string, n: number, parentCompCode?: string): Promise<string> {
  const first17 = `91310115MA${String(Number(stamp) * 10 + n)
    .padStart(7, '0')
    .slice(-7)}`;
  const body: CompanyAdd = {
    compName: name,
    usccCode: first17 + usccCheckChar(first17),
    compType: 'private',
    roles: ['supplier'],
    legalPerson: '测试法人',
    regCapital: '10000000.00',
    provinceCode: '310000',
    cityCode: '310100',
    areaCode: '310115',
    ...(parentCompCode ? { parentCompCode } : {}),
  };
  return (await data<{ compCode: string }>(COMPANY_PATHS.add, token, body)).compCode;
}

/** A contract through the API on the credit's platform line, submitted and approved by the checker. */
async function approvedContractOn(
  token: string,
  checkerToken: string,
  credBizCode: string,
  custCode: string,
) {
  const init = await data<ContractInit>(CONTRACT_PATHS.init, token, undefined, {
    platCredBizCode: credBizCode,
  });
  const line = init.lines.find((l) => l.kind === 'platform')!;
  const rules = await data<{ code: string; label: string }[]>(RULER_PATHS.dict, token, {});
  // The demo data's bullet rule (its plan needs no custom rows).
  const rule = rules.find((r) => r.label.startsWith('标准保理')) ?? rules[0]!;
  const banks = await data<{ bizCode: string }[]>(CONTRACT_PATHS.bank, token, {});
  const start = today();
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const body = {
    contractNo: `E2E-${stamp}`,
    recourse: 'with',
    disclosure: 'disclosed',
    product: 'factoring',
    custCode,
    platCredBizCode: credBizCode,
    lineCode: line.lineCode,
    financingRatio: '0.8',
    financingAmount: '100000.00',
    startDate: start,
    maturityDate: `${y + 1}-${String(m).padStart(2, '0')}-${String(Math.min(d, 28)).padStart(2, '0')}`,
    ruleBizCode: rule.code,
    bankBizCode: banks[0]!.bizCode,
    receivables: [
      {
        invoiceCode: `31002${String(y).slice(2)}130`,
        invoiceNo: String(30_000_000 + Number(stamp)),
        invoiceDate: start,
        amount: '150000.00',
        debtorName: '核心买方有限公司',
        dueDate: start,
      },
    ],
    payers: [{ payerName: '核心买方有限公司' }],
  };
  const saved = await data<{ bizCode: string; version: number }>(CONTRACT_PATHS.infoSave, token, body);
  const scheme = await data<{ version: number }>(CONTRACT_PATHS.schemeSave, token, {
    contBizCode: saved.bizCode,
    version: saved.version,
  });
  await data(CONTRACT_PATHS.infoSave, token, {
    ...body,
    bizCode: saved.bizCode,
    version: scheme.version,
    submit: true,
  });
  await data(CONTRACT_PATHS.infoAudit, checkerToken, { comment: '同意' }, { bizCode: saved.bizCode });
}

describe('credit screens', () => {
  it('creates and approves a credit with a factoring sub-limit, distributes part, raises it, and the chart follows', async () => {
    const maker = await newPage(browser);
    await login(maker.page, base, password);
    const token = (await tokenOf(maker.context))!;
    const groupName = `授信集团${stamp}`;
    const memberName = `授信成员${stamp}`;
    const group = await addCompany(token, groupName, 1);
    const member = await addCompany(token, memberName, 2, group);
    // Only admitted customers hold a credit (客户准入, docs/admission.md).
    await admitCustomer(token, group);
    await admitCustomer(token, member);
    const checkerUser = await addChecker(token);
    const checker = await newPage(browser);
    await loginAs(checker.page, checkerUser.userName, checkerUser.password);

    const page = maker.page;
    try {
      const checkerToken = (await tokenOf(checker.context))!;
      await scenario(page, checker.page, { groupName, memberName, group, token, checkerToken });
    } catch (err) {
      await page.screenshot({ path: shotPath('credit-failed-maker.png') });
      await checker.page.screenshot({ path: shotPath('credit-failed-checker.png') });
      console.info('maker url', page.url(), 'checker url', checker.page.url());
      throw err;
    }
    await maker.context.close();
    await checker.context.close();
  }, 150_000);
});

async function scenario(
  page: Page,
  checkerPage: Page,
  ids: { groupName: string; memberName: string; group: string; token: string; checkerToken: string },
) {
  const { groupName, memberName, group, token, checkerToken } = ids;
  const checker = { page: checkerPage };
  {
    // 1. The platform credit, in the editor's first tab.
    const editor = await openScreen(page, `${base}/factoring/credit/info-editor`, 'credit-editor');
    await editor.getByLabel('客户').fill(groupName);
    await pick(page, groupName);
    await editor.getByLabel('授信总额度').fill('1000000.00');
    await editor.getByLabel('起始日').fill('2020-01-01');
    await editor.getByLabel('到期日').fill('2099-12-31');
    await editor
      .getByRole('button', { name: /保\s*存/ })
      .first()
      .click();
    await expect
      .poll(() => page.locator('.ant-modal-confirm').textContent())
      .toContain('此操作将保存平台授信！ 是否继续？');
    await confirm(page);
    await page.waitForURL(/info-editor\?bizCode=\d{12}/);
    const bizCode = new URL(page.url()).searchParams.get('bizCode')!;
    await expect.poll(() => editor.textContent()).toContain(`授信编辑 ${bizCode}`);

    // 2. A factoring sub-limit in the 保理授信 tab.
    await clickTab(editor, '保理授信');
    const ft = editor.getByTestId('ft-editor');
    await ft.getByRole('button', { name: /添\s*加/ }).click();
    await ft.getByLabel('债务人名称').click();
    await pick(page, '华东建工集团有限公司');
    await ft.getByLabel('保理子额度').fill('600000.00');
    await ft.getByLabel('融资比例').fill('0.8');
    await ft.getByLabel('追索权').click();
    await pick(page, '有追索');
    await ft.getByRole('button', { name: /保\s*存/ }).click();
    await confirm(page);
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('操作成功');

    // 3. Submit from the first tab; the checker approves.
    await clickTab(editor, '平台授信');
    await editor.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/info-view\?bizCode=/);
    await approve(checker.page, '/factoring/credit/info-view', bizCode, 'credit-view');
    await clickTab(checker.page.getByTestId('credit-view'), '业务单据');
    await clickTab(checker.page.getByTestId('credit-view'), '保理授信');
    await expect.poll(() => checker.page.getByTestId('credit-view').textContent()).toContain('600,000.00');
    // 平台授信's 币种 in words (人民币), never the code CNY.
    await clickTab(checker.page.getByTestId('credit-view'), '平台授信');
    // (a bordered list: the label cell, then its value cell)
    const currency = checker.page
      .getByTestId('credit-view')
      .locator('th.ant-descriptions-item-label', { hasText: /^币种$/ })
      .first()
      .locator('xpath=following-sibling::td[1]');
    await expect.poll(() => currency.textContent()).toBe('人民币');

    // 4. Distribute 300,000.00 to the group member; approve.
    const dist = await openScreen(page, `${base}/factoring/credit/distribution-editor`, 'dist-editor');
    await dist.getByLabel('授信').fill(bizCode);
    await pick(page, `${bizCode} ${groupName}`);
    await expect.poll(() => dist.textContent()).toContain('可分配');
    await dist.getByLabel('成员客户').fill(memberName);
    await pick(page, memberName);
    await dist.getByLabel('分配额度').fill('300000.00');
    await dist.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/distribution-view\?bizCode=/);
    const distCode = new URL(page.url()).searchParams.get('bizCode')!;
    // Nobody has acted yet: the maker takes it back (a draft again) and submits it anew.
    const distView = page.getByTestId('dist-view');
    const distState = () => distView.locator('.ant-card-head').first().textContent();
    await expect.poll(distState, { timeout: 10_000 }).toContain('审核中');
    await distView.getByTestId('doc-withdraw').click();
    await confirm(page);
    await expect.poll(distState, { timeout: 10_000 }).toContain('草稿');
    // A draft again: the view offers its editor.
    await distView.getByTestId('doc-edit').click();
    await page.waitForURL(/distribution-editor\?bizCode=/);
    const again = activePage(page, '/factoring/credit/distribution-editor').getByTestId('dist-editor');
    await expect
      .poll(() => again.getByTestId('dist-total').textContent(), { timeout: 10_000 })
      .toBe('300,000.00');
    await again.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/distribution-view\?bizCode=/);
    await approve(checker.page, '/factoring/credit/distribution-view', distCode, 'dist-view');

    // The chart: the group keeps 700,000.00, the member has 300,000.00.
    await openScreen(page, `${base}/factoring/credit/info`, 'credit-list');
    const list = activePage(page, '/factoring/credit/info');
    const groupRow = list.locator(`[data-testid="utilisation-table"] tr[data-cust="${group}"]`);
    await expect.poll(() => groupRow.textContent(), { timeout: 10_000 }).toContain('700,000.00');
    expect(await list.getByTestId('utilisation-table').textContent()).toContain(memberName);

    // 5. Raise the platform line to 1,500,000.00; approve; the chart moves.
    const chg = await openScreen(page, `${base}/factoring/credit/change-editor`, 'chg-editor');
    await chg.getByLabel('授信').fill(bizCode);
    await pick(page, `${bizCode} ${groupName}`);
    await chg.getByLabel('变更后额度').fill('1500000.00');
    await chg.getByLabel('变更原因').fill('经营规模扩大');
    await chg.getByRole('button', { name: /提交审批/ }).click();
    await confirm(page);
    await page.waitForURL(/change-view\?bizCode=/);
    const chgCode = new URL(page.url()).searchParams.get('bizCode')!;
    await approve(checker.page, '/factoring/credit/change-view', chgCode, 'chg-view');

    await openScreen(page, `${base}/factoring/credit/info`, 'credit-list');
    await list
      .getByTestId('utilisation-chart')
      .getByRole('button', { name: /刷\s*新/ })
      .click();
    await expect.poll(() => groupRow.textContent(), { timeout: 10_000 }).toContain('1,200,000.00');

    // 6. A contract of 100,000.00 on the group's line, approved by the checker: the chart moves again.
    await approvedContractOn(token, checkerToken, bizCode, group);
    await list
      .getByTestId('utilisation-chart')
      .getByRole('button', { name: /刷\s*新/ })
      .click();
    await expect.poll(() => groupRow.textContent(), { timeout: 10_000 }).toContain('1,100,000.00');
    await page.screenshot({ path: shotPath('credit-utilisation.png') });

    // History of the credit: creation of both lines, the reservation and the limit change.
    const view = await openScreen(
      page,
      `${base}/factoring/credit/info-view?bizCode=${bizCode}`,
      'credit-view',
    );
    await clickTab(view, '审批记录');
    await expect.poll(() => view.textContent()).toContain('复核员');
    await clickTab(view, '业务单据');
    await clickTab(view, '授信历史');
    const history = view.getByTestId('credit-history');
    await expect.poll(() => history.textContent()).toContain('额度调整');
    expect(await history.textContent()).toContain('分配预留');
    await page.screenshot({ path: shotPath('credit-history.png') });
  }
}
