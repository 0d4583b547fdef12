import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { WORKFLOW_PATHS } from '@portal/contract/workflow';
import {
  animationsDone,
  motionDone,
  activePage,
  apiCall,
  launchBrowser,
  newPage,
  shotPath,
  base,
  signIn,
} from './helpers';

/**
 * Approvals in the browser. (1) The process-definition screen and the dashboard calls against the
 * production server of global-setup. (2) The whole flow on a sample document type — submitted by
 * one user, decided by two others in 流程监控's audit view (header, 流程审批, 审批记录, 流程图,
 * 传阅) — against a test-only server (apps/server/src/testing/workflow-e2e-server.ts: the product
 * plus the sample type; nothing is added to production). The helpers (`approveInAuditView`,
 * `expectAuditTabs`, `circulateInAuditView`) are for each document's own e2e test.
 */

const password = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The audit view of a document screen (src/shared/workflow/AuditView.tsx). */
export function auditView(page: Page): Locator {
  return page.getByTestId('audit-view').first();
}

/** 流程审批: approve (or reject, which needs a comment) the current step; waits for 操作成功！. */
export async function approveInAuditView(
  page: Page,
  verdict: 'approve' | 'reject',
  comment: string,
): Promise<void> {
  const view = auditView(page);
  await view.getByRole('tab', { name: '流程审批' }).click();
  await view.getByTestId('decision-comment').fill(comment);
  await view.getByTestId(verdict === 'approve' ? 'decision-approve' : 'decision-reject').click();
  const dialog = page.locator('.ant-modal-confirm');
  await motionDone(dialog);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await page.getByText('操作成功！').first().waitFor();
}

/** Header, 审批记录 and 流程图 after a decision: `status` 审核中 / 已审核 / 已驳回, `actions` in record order. */
export async function expectAuditTabs(
  page: Page,
  want: { status: string; actions: string[]; nodes: [title: string, status: string][] },
): Promise<void> {
  const view = auditView(page);
  await expect.poll(() => view.getByTestId('audit-status').textContent()).toBe(want.status);
  await view.getByRole('tab', { name: '审批记录' }).click();
  await expect
    .poll(async () =>
      (await view.getByTestId('approval-record').allTextContents()).map(
        (t) => want.actions.find((a) => t.includes(a)) ?? t,
      ),
    )
    .toEqual(want.actions);
  await view.getByRole('tab', { name: '流程图' }).click();
  const nodes = view.getByTestId('flow-node');
  await expect
    .poll(async () =>
      nodes.evaluateAll((els) =>
        els.map((e) => [e.getAttribute('data-title'), e.getAttribute('data-status')]),
      ),
    )
    .toEqual(want.nodes);
}

/** 传阅: send to a colleague (by the option text, e.g. 李风控) and see them listed as 未阅. */
export async function circulateInAuditView(page: Page, colleague: string, message: string): Promise<void> {
  const view = auditView(page);
  await view.getByRole('tab', { name: '传阅' }).click();
  await view.getByRole('button', { name: /传\s*阅/ }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '传阅说明' });
  await dialog.getByTestId('circulate-users').click();
  await animationsDone(page);
  await page.locator('.ant-select-item-option').filter({ hasText: colleague }).first().click();
  // Close the dropdown by clicking the dialog's title (Escape may close the dialog, Tab toggles the option).
  await dialog.locator('.ant-modal-title').click();
  await expect.poll(() => dialog.locator('.ant-select').first().textContent()).toContain(colleague);
  await dialog.locator('textarea').fill(message);
  await dialog.getByRole('button', { name: /发\s*送/ }).click();
  await expect
    .poll(() => view.getByTestId('circulation-panel').textContent())
    .toContain('未阅')
    .catch(async (err: unknown) => {
      await page.screenshot({ path: shotPath('workflow-circulate-failure.png'), fullPage: true });
      throw err;
    });
}

describe('approval process definitions (ft-process)', () => {
  it('lists the seeded process of every document type and saves an extra 总经理 step above an amount', async () => {
    const { context, page } = await newPage(browser);
    await signIn(context, password);
    await page.goto(`${base}/factoring/config/process`);
    const screen = activePage(page, '/factoring/config/process');
    await screen.getByTestId('process-page').waitFor();
    for (const label of ['合同信息', '授信', '额度分配', '来款', '来款核销', '资料交接单']) {
      await expect.poll(() => screen.getByRole('cell', { name: label, exact: true }).count()).toBe(1);
    }
    await expect
      .poll(() => screen.getByTestId('steps-contract').textContent())
      .toContain('总经理审批（总经理，≥ 5,000,000.00）');
    await expect.poll(() => screen.getByTestId('steps-handover').textContent()).toBe('1. 风控复核（风控）');

    await screen.getByTestId('edit-handover').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '编辑审批流程：资料交接单' });
    // The dialog zooms in after it is in place: a click during the zoom lands beside 添加步骤
    // (docs/architecture.md "A tab strip that moves"), as a person's would.
    await motionDone(dialog);
    await dialog.getByTestId('proc-name').fill('资料交接单两级审批');
    await dialog.getByRole('button', { name: '添加步骤' }).click();
    const row = dialog.getByTestId('step-row').nth(1);
    await row.getByPlaceholder('步骤名称').fill('总经理审批');
    await animationsDone(page);
    await row.locator('.ant-select').click();
    await animationsDone(page);
    await page.locator('.ant-select-item-option').filter({ hasText: '总经理' }).first().click();
    await row.getByPlaceholder('金额下限（可空）').fill('1.234');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => dialog.textContent()).toContain('金额下限必须是最多两位小数的金额');
    await row.getByPlaceholder('金额下限（可空）').fill('1000000');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('操作成功！').first().waitFor();
    await expect
      .poll(() => screen.getByTestId('steps-handover').textContent())
      .toBe('1. 风控复核（风控）2. 总经理审批（总经理，≥ 1,000,000.00）');
    await expect.poll(() => screen.getByRole('cell', { name: '资料交接单两级审批' }).count()).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    // Nothing went to the error log (a refused form is not an error).
    expect(await page.getByRole('button', { name: '错误日志' }).count()).toBe(0);
    await page.screenshot({ path: shotPath('workflow-process.png'), fullPage: true });
    await context.close();
  }, 120_000);

  it('answers the dashboard calls (待办, 待阅, counts) for the signed-in user', async () => {
    const { context } = await newPage(browser);
    const token = await signIn(context, password);
    const counts = await apiCall(base, WORKFLOW_PATHS.counts, token);
    expect(counts.status).toBe(200);
    const figures = (counts.json as { data: { todo: number; toRead: number } }).data;
    // The counts agree with the lists they summarise (the demo data leaves documents pending).
    const todo = await apiCall(base, WORKFLOW_PATHS.todo, token, { pageNum: 1, pageSize: 10 });
    expect((todo.json as { data: { total: number } }).data.total).toBe(figures.todo);
    const toRead = await apiCall(base, WORKFLOW_PATHS.toRead, token, {
      pageNum: 1,
      pageSize: 10,
      read: false,
    });
    expect((toRead.json as { data: { total: number } }).data.total).toBe(figures.toRead);
    await context.close();
  });
});

// ---------------------------------------------------------------------------------------------
// The whole flow on the sample document type (test-only server).

const repo = resolve(import.meta.dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

async function startSampleServer(): Promise<{ base: string; child: ChildProcess; log: () => string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/testing/workflow-e2e-server.ts'],
    {
      cwd: repo,
      env: {
        ...process.env,
        PORT: String(port),
        ADMIN_PASSWORD: password,
        WEB_DIST: resolve(repo, 'apps/web/dist'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`sample server did not start:\n${log}`)), 90_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes('WORKFLOW_E2E_READY')) {
        clearTimeout(timer);
        res();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`sample server exited with ${code}:\n${log}`));
    });
  });
  return { base: `http://127.0.0.1:${port}`, child, log: () => log };
}

async function apiLogin(at: string, userName: string): Promise<string> {
  const res = await apiCall(at, '/admin/portal/api/login/user/mobileNumberLogin', '', {
    userName,
    passWord: password,
    userType: '2',
  });
  return (res.json as { data: { accessToken: string } }).data.accessToken;
}

async function loginAs(page: Page, at: string, userName: string): Promise<void> {
  await page.goto(`${at}/login`);
  await page.getByPlaceholder('用户名').fill(userName);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

/** 审批流程 › 流程监控 › the document's row › its audit view in the drawer. */
async function openFromMonitor(page: Page, at: string, notic: string): Promise<void> {
  await page.goto(`${at}/factoring/config/process`);
  const screen = activePage(page, '/factoring/config/process');
  await screen.getByRole('tab', { name: '流程监控' }).click();
  await screen
    .getByTestId('monitor-panel')
    .getByRole('button', { name: /查\s*询/ })
    .click();
  await screen.getByTestId('open-instance').filter({ hasText: notic }).click();
  await auditView(page).getByTestId('audit-header').waitFor();
}

describe('a document through its approval, in the browser (sample type)', () => {
  let sample: Awaited<ReturnType<typeof startSampleServer>> | undefined;
  beforeAll(async () => {
    sample = await startSampleServer();
  });
  afterAll(() => {
    sample?.child.kill('SIGTERM');
    // Its watchdog lines (slow requests, event-loop blocks) beside the main server's log.
    if (sample) writeFileSync(shotPath('workflow-server.log'), sample.log());
  });

  it('submitted by the maker, approved by 风控 then 总经理, with records, flow chart and circulation', async () => {
    const at = sample!.base;
    // The maker saves and submits (保存并提交) a 2,000,000.00 document: 风控复核 + 总经理审批 apply.
    const makerToken = await apiLogin(at, 'maker');
    const saved = await apiCall(at, '/ft/api/sample/save', makerToken, {
      title: '浏览器审批',
      amount: '2000000.00',
      submit: true,
    });
    expect(saved.status).toBe(200);
    const notic = '样例 浏览器审批';

    // 风控 opens it from 流程监控: the header and the flow chart show step 1 current.
    const risk = await newPage(browser);
    const step = (what: string) => console.info(`[workflow e2e] ${what}`);
    step('risk1 logs in');
    await loginAs(risk.page, at, 'risk1');
    step('risk1 opens 流程监控');
    await openFromMonitor(risk.page, at, notic).catch(async (err: unknown) => {
      await risk.page.screenshot({ path: shotPath('workflow-failure.png'), fullPage: true });
      throw err;
    });
    const view = auditView(risk.page);
    await expect.poll(() => view.getByTestId('audit-header').textContent()).toContain(notic);
    expect(await view.getByRole('tab', { selected: true }).textContent()).toBe('业务单据');
    await expectAuditTabs(risk.page, {
      status: '审核中',
      actions: ['提交'],
      nodes: [
        ['提交', 'start'],
        ['1. 风控复核', 'current'],
        ['2. 总经理审批', 'waiting'],
        ['结束', 'end-open'],
      ],
    });
    step('risk1 approves step 1');
    await approveInAuditView(risk.page, 'approve', '资料齐全，同意');
    await expectAuditTabs(risk.page, {
      status: '审核中',
      actions: ['提交', '通过'],
      nodes: [
        ['提交', 'start'],
        ['1. 风控复核', 'done'],
        ['2. 总经理审批', 'current'],
        ['结束', 'end-open'],
      ],
    });
    expect(await view.getByTestId('approval-record').nth(1).textContent()).toContain('资料齐全，同意');
    // 风控 cannot decide step 2: the panel says why, with no comment box and no buttons.
    await view.getByRole('tab', { name: '流程审批' }).click();
    await expect.poll(() => view.getByTestId('cannot-reason').textContent()).toContain('总经理');
    expect(await view.getByTestId('decision-comment').count()).toBe(0);
    expect(await view.getByTestId('decision-approve').count()).toBe(0);
    step('risk1 circulates');
    await circulateInAuditView(risk.page, '赵总', '请总经理审阅');
    await risk.page.screenshot({ path: shotPath('workflow-audit-view.png'), fullPage: true });
    await risk.context.close();

    // 总经理 has it to read and to do; approves the last step: 已审核.
    const bossToken = await apiLogin(at, 'boss');
    const counts = await apiCall(at, WORKFLOW_PATHS.counts, bossToken);
    expect((counts.json as { data: { todo: number; toRead: number } }).data).toEqual({ todo: 1, toRead: 1 });
    const boss = await newPage(browser);
    await loginAs(boss.page, at, 'boss');
    await openFromMonitor(boss.page, at, notic);
    step('boss approves step 2');
    await approveInAuditView(boss.page, 'approve', '同意');
    await expectAuditTabs(boss.page, {
      status: '已审核',
      actions: ['提交', '通过', '通过'],
      nodes: [
        ['提交', 'start'],
        ['1. 风控复核', 'done'],
        ['2. 总经理审批', 'done'],
        ['已审核', 'end-ok'],
      ],
    });
    await boss.page.screenshot({ path: shotPath('workflow-flowchart.png'), fullPage: true });
    const bossView = auditView(boss.page);
    await bossView.getByRole('tab', { name: '传阅' }).click();
    await expect.poll(() => bossView.getByTestId('circulation-panel').textContent()).toContain('赵总');
    // The circulated item is the boss's to read: mark it read here.
    await bossView.getByTestId('mark-read').click();
    // Read once the button has gone and the row says 已阅 with its time: the button's own label
    // (标记已阅) contains 已阅, so waiting for that text alone passed before the call was answered.
    await expect.poll(() => bossView.getByTestId('mark-read').count()).toBe(0);
    expect(await bossView.getByTestId('circulation-panel').textContent()).toMatch(/已阅 \d{4}-\d{2}-\d{2}/);
    const after = await apiCall(at, WORKFLOW_PATHS.counts, bossToken);
    expect((after.json as { data: { todo: number; toRead: number } }).data).toEqual({ todo: 0, toRead: 0 });
    await expect.poll(() => bossView.getByTestId('audit-header').textContent()).toMatch(/耗时\s*[\d.]+ 天/);
    await boss.page.screenshot({ path: shotPath('workflow-approved.png'), fullPage: true });
    await boss.context.close();
  }, 180_000);
});
