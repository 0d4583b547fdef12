import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BeforeAfter,
  ChangeView,
  ContractInfo,
  ContractListRow,
  DueView,
  InfoSave,
  SchemeView,
} from '@portal/contract/contract';
import type { LoanView } from '@portal/contract/loan';
import type { Page } from '@portal/contract/api';
import type { LineFigures } from '@portal/contract/credit';
import type { PlanResult } from '@portal/contract/plan/schedule';
import type { InterestRuleCalcInput } from '@portal/contract/plan/rule';
import { queryRows } from '../../platform/db/client';
import { serverRoot } from '../../server';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { disburse, loanApi, lq } from '../loan/testkit';
import {
  addOwnAccount,
  approvedContract,
  contractBody,
  contractFixture,
  draftContract,
  contractApi,
  receivable,
  submitContract,
  type ContractFixture,
  type Saved,
} from './testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const q = (bizCode: string) => ({ query: { bizCode } });
const cq = (contBizCode: string) => ({ query: { contBizCode } });

async function line(code: string): Promise<{ occupied: string; limit: string }> {
  const [r] = await queryRows<{ occupied: string; limit: string }>(
    db(),
    sql`select occupied_amount::text as occupied, limit_amount::text as limit from credit_lines where biz_code = ${code}`,
  );
  return r!;
}

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '300000.00' });
});
afterAll(() => t.close());

describe('contract info', () => {
  it('saves a draft, answers it in view and list, with names resolved', async () => {
    const body = contractBody(f, { remark: '首笔' });
    const s = await maker.ok<Saved>(contractApi.infoSave, body);
    expect(s.state).toBe('draft');
    const v = await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(s.bizCode));
    expect(v).toMatchObject({
      contractNo: body.contractNo,
      financingAmount: '100000.00',
      receivablesAmount: '150000.00',
      state: 'draft',
      status: 'none',
      remark: '首笔',
      payers: [{ payerName: '核心买方有限公司' }],
    });
    expect(v.custName).toMatch(/测试供应商/);
    expect(v.bankAccountNo).toMatch(/^6222/);
    const list = await maker.ok<Page<ContractListRow>>(contractApi.list, { contractNo: body.contractNo });
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ bizCode: s.bizCode, principalOutstanding: '0.00' });
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const before = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from contracts`);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ financingAmount: '-1' }, /融资金额/],
      [{ financingRatio: '1.5' }, /融资比例/],
      [{ maturityDate: '2026-01-01' }, /到期日必须晚于起始日/],
      [{ receivables: [] }, /应收账款不能为空/],
      [{ payers: [] }, /付款方信息不能为空/],
      [{ financingAmount: '130000.00' }, /融资金额不能超过应收账款金额×融资比例（120,000\.00元）/],
      [{ lineCode: '999999999999' }, /占用额度不属于所选平台授信/],
      [{ bankBizCode: '999999999999' }, /还款账户不存在/],
      [{ ruleBizCode: '999999999999' }, /计息规则不存在/],
      [{ financingAmount: '400000.00', receivables: [receivable('600000.00')] }, /授信额度不足/],
    ];
    for (const [over, msg] of cases) {
      const r = await maker.call(contractApi.infoSave, { ...contractBody(f), ...over });
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.msg).toMatch(msg);
    }
    const after = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from contracts`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('never takes a 付款账户 as 还款账户: the picker leaves it out and a save refuses it', async () => {
    const pay = await addOwnAccount(maker, 'pay');
    const banks = await maker.ok<{ bizCode: string; purpose: string }[]>(contractApi.bank);
    expect(banks.map((b) => b.bizCode)).toContain(f.bankBizCode);
    expect(banks.map((b) => b.bizCode)).not.toContain(pay);
    const r = await maker.call(contractApi.infoSave, contractBody(f, { bankBizCode: pay }));
    expect(r.status).toBe(400);
    expect(r.msg).toMatch(/还款账户不能是付款账户/);
  });

  it('an invoice backs one live contract; deleting the contract frees it', async () => {
    const inv = receivable('150000.00');
    const a = await maker.ok<Saved>(contractApi.infoSave, contractBody(f, { receivables: [inv] }));
    const r = await maker.call(contractApi.infoSave, contractBody(f, { receivables: [inv] }));
    expect(r.status).toBe(400);
    expect(r.msg).toContain(`已转让给合同 ${a.bizCode}`);
    await maker.ok(contractApi.infoDelete, undefined, q(a.bizCode));
    expect((await maker.call(contractApi.infoView, undefined, q(a.bizCode))).status).toBe(404);
    await maker.ok(contractApi.infoSave, contractBody(f, { receivables: [inv] }));
  });

  it('a user without the contract codes gets 401 (no code); view-only cannot save', async () => {
    await createUserWithCodes(db(), 'viewer1', 'Viewer@123456', ['ft-contract-info']);
    const viewer = await t.login('viewer1', 'Viewer@123456');
    expect((await viewer.call(contractApi.list, {})).status).toBe(200);
    expect((await viewer.call(contractApi.infoSave, contractBody(f))).status).toBe(401);
    await createUserWithCodes(db(), 'nobody1', 'Nobody@123456', ['ft-bank']);
    const nobody = await t.login('nobody1', 'Nobody@123456');
    expect((await nobody.call(contractApi.list, {})).status).toBe(401);
  });
});

describe('scheme and plan', () => {
  it('planAdd previews without saving; scheme/save stores a plan summing to the financing', async () => {
    const preview = await maker.ok<PlanResult>(contractApi.planAdd, {
      financingAmount: '100000.00',
      startDate: '2026-01-15',
      maturityDate: '2026-07-15',
      ruleBizCode: f.ruleBizCode,
    });
    expect(preview.items).toHaveLength(1);
    // 100000 × 7.2 % × 181 / 360 = 3620.00
    expect(preview.items[0]).toMatchObject({ principal: '100000.00', interest: '3620.00' });
    const body = contractBody(f);
    const s = await draftContract(maker, body);
    const scheme = await maker.ok<SchemeView>(contractApi.schemeView, undefined, cq(s.bizCode));
    expect(scheme.items.map((i) => i.principal)).toEqual(['100000.00']);
    expect(scheme.rule?.method).toBe('BULLET');
    // Changing the amount discards the plan: submit then asks for a new one.
    const changed = await maker.ok<Saved>(contractApi.infoSave, {
      ...body,
      bizCode: s.bizCode,
      version: s.version,
      financingAmount: '90000.00',
    });
    expect((await maker.ok<SchemeView>(contractApi.schemeView, undefined, cq(s.bizCode))).items).toHaveLength(
      0,
    );
    const r = await maker.call(contractApi.infoSave, {
      ...body,
      bizCode: s.bizCode,
      version: changed.version,
      financingAmount: '90000.00',
      submit: true,
    });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('请先生成并保存还款计划');
  });

  it('a stale version is refused with 409', async () => {
    const s = await draftContract(maker, contractBody(f));
    const r = await maker.call(contractApi.schemeSave, { contBizCode: s.bizCode, version: s.version - 1 });
    expect(r.status).toBe(409);
  });
});

describe('approval occupies the credit line', () => {
  it('approval occupies exactly the financing amount and activates the plan', async () => {
    const before = await line(f.lineCode);
    const body = contractBody(f, { financingAmount: '50000.00' });
    const s = await draftContract(maker, body);
    const sub = await submitContract(maker, body, s);
    expect(sub.state).toBe('pending');
    // Four eyes: the maker may not approve.
    expect((await maker.call(contractApi.infoAudit, {}, q(s.bizCode))).status).toBe(409);
    await checker.ok(contractApi.infoAudit, { comment: '同意' }, q(s.bizCode));
    const after = await line(f.lineCode);
    expect(new Decimal(after.occupied).minus(before.occupied).toFixed(2)).toBe('50000.00');
    const v = await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(s.bizCode));
    expect(v).toMatchObject({ state: 'approved', status: 'effective', occupiedAmount: '50000.00' });
    const listed = await maker.ok<Page<ContractListRow>>(contractApi.list, { bizCode: s.bizCode });
    // Occupied, but 在贷本金 counts disbursed principal only: nothing until the 放款单 is approved.
    expect(listed.list[0]!.principalOutstanding).toBe('0.00');
    await disburse(maker, checker, s.bizCode);
    const loaned = await maker.ok<Page<ContractListRow>>(contractApi.list, { bizCode: s.bizCode });
    expect(loaned.list[0]!.principalOutstanding).toBe('50000.00');
    const ledger = await queryRows<{ amount: string }>(
      db(),
      sql`select amount::text from credit_ledger where doc_type = 'contract' and doc_code = ${s.bizCode}`,
    );
    expect(ledger).toEqual([{ amount: '50000.00' }]);
    // Approved: no more edits or deletes.
    expect((await maker.call(contractApi.infoDelete, undefined, q(s.bizCode))).status).toBe(409);
  });

  it('fails whole when the credit is short: contract stays pending, nothing occupied', async () => {
    const g = await contractFixture(t, maker, checker, { limit: '120000.00' });
    const a = contractBody(g, { financingAmount: '100000.00' });
    const b = contractBody(g, { financingAmount: '100000.00' });
    const sa = await draftContract(maker, a);
    const sb = await draftContract(maker, b);
    await submitContract(maker, a, sa);
    await submitContract(maker, b, sb);
    await checker.ok(contractApi.infoAudit, {}, q(sa.bizCode));
    const r = await checker.call(contractApi.infoAudit, {}, q(sb.bizCode));
    expect(r.status).toBe(409);
    expect(r.msg).toMatch(/授信额度不足/);
    const vb = await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(sb.bizCode));
    expect(vb).toMatchObject({ state: 'pending', status: 'none', occupiedAmount: '0.00' });
    expect((await line(g.lineCode)).occupied).toBe('100000.00');
  });
});

describe('dues, loan, prepayment init', () => {
  it('suggests margin and up-front items; 放款初始化 deducts those not received', async () => {
    const front = await contractFixture(t, maker, checker, {
      rule: {
        annualRate: '0.09',
        dayCount: 'ACT/360',
        method: 'BULLET',
        interestCollection: 'FRONT',
        feeRate: '0.002',
        feeCollection: 'FRONT',
        penalty: { mode: 'MULTIPLE', value: '1.5' },
        graceDays: 0,
      },
    });
    const body = contractBody(front, { marginRatio: '0.1' });
    const s = await draftContract(maker, body);
    const dues = await maker.ok<{ kind: string; amount: string }[]>(
      contractApi.due,
      undefined,
      cq(s.bizCode),
    );
    // margin 10 %; 前置 interest 100000 × 9 % × 181/360 = 4525.00; fee 100000 × 0.2 % × 181/360 = 100.56
    expect(dues.map((d) => [d.kind, d.amount])).toEqual([
      ['margin', '10000.00'],
      ['upfrontInterest', '4525.00'],
      ['upfrontFee', '100.56'],
    ]);
    const d = await maker.ok<{ version: number }>(contractApi.dueSave, {
      contBizCode: s.bizCode,
      version: s.version,
      items: dues.map((x) => ({ ...x, dueDate: '2026-01-15' })),
    });
    await submitContract(maker, body, { ...s, version: d.version });
    await checker.ok(contractApi.infoAudit, {}, q(s.bizCode));
    const init = await maker.ok<{ dues: { openAmount: string }[] }>(
      contractApi.isPrevious,
      undefined,
      q(s.bizCode),
    );
    expect(init.dues.map((x) => x.openAmount)).toEqual(['10000.00', '4525.00', '100.56']);
    // 放款初始化 (isLoan) prefills a 放款单 (loan module): nothing received yet, so every up-front
    // item is deducted: 100000 − 10000 − 4525 − 100.56. Nothing changes until that document is approved.
    const loan = await maker.ok<{ netAmount: string; deductedTotal: string }>(
      contractApi.isLoan,
      undefined,
      q(s.bizCode),
    );
    expect(loan).toMatchObject({ netAmount: '85374.44', deductedTotal: '14625.56' });
    expect((await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(s.bizCode))).loanState).toBe(
      'none',
    );
  });
});

describe('implied up-front items (docs/money-lifecycle.md "Implied up-front items")', () => {
  const FRONT_ONLY: InterestRuleCalcInput = {
    annualRate: '0.09',
    dayCount: 'ACT/360',
    method: 'BULLET',
    interestCollection: 'FRONT',
    feeRate: '0',
    feeCollection: 'BACK',
    penalty: { mode: 'MULTIPLE', value: '1.5' },
    graceDays: 0,
  };
  let g: ContractFixture;
  beforeAll(async () => {
    g = await contractFixture(t, maker, checker, { limit: '1000000.00' });
  });
  const dues = (code: string) => maker.ok<DueView[]>(contractApi.dueView, undefined, cq(code));
  const submit = (body: InfoSave, s: Saved, version: number) =>
    maker.call<Saved>(contractApi.infoSave, { ...body, bizCode: s.bizCode, version, submit: true });

  it('a 前置 contract approved without saving its dues has its 前置利息 deducted at disbursement', async () => {
    const front = await contractFixture(t, maker, checker, { limit: '1000000.00', rule: FRONT_ONLY });
    // 400,000.00 at 9 % ACT/360 for 90 days (2026-01-15 → 2026-04-15): 9,000.00 up front.
    const body = contractBody(front, {
      financingAmount: '400000.00',
      maturityDate: '2026-04-15',
      receivables: [receivable('500000.00', '2026-04-15')],
    });
    const s = await draftContract(maker, body);
    const plan = await maker.ok<SchemeView>(contractApi.schemeView, undefined, cq(s.bizCode));
    expect(plan.upfrontInterest).toBe('9000.00');
    expect(plan.items.map((i) => i.interest)).toEqual(['0.00']);
    // The dues tab was never saved: the plan made the item.
    expect((await dues(s.bizCode)).map((d) => [d.kind, d.amount, d.ruleAmount, d.reason])).toEqual([
      ['upfrontInterest', '9000.00', '9000.00', null],
    ]);
    await submitContract(maker, body, s);
    await checker.ok(contractApi.infoAudit, {}, q(s.bizCode));
    // Value date = the contract's start, so the 前置利息 runs the same 90 days.
    const loan = await disburse(maker, checker, s.bizCode);
    const view = await maker.ok<LoanView>(loanApi.viewBaseInfo, undefined, lq(loan));
    expect(view).toMatchObject({ netAmount: '391000.00', deductedTotal: '9000.00' });
    expect(view.lines.map((l) => [l.kind, l.deducted])).toEqual([['upfrontInterest', '9000.00']]);
  });

  it('an implied amount changes only with a reason, which the contract view shows beside the rule’s figure', async () => {
    const body = contractBody(g, { financingAmount: '100000.00', marginRatio: '0.1' });
    const s = await draftContract(maker, body);
    expect((await dues(s.bizCode)).map((d) => [d.kind, d.amount, d.ruleAmount])).toEqual([
      ['margin', '10000.00', '10000.00'],
    ]);
    const saveDues = (version: number, items: unknown[]) =>
      maker.ok<{ version: number }>(contractApi.dueSave, { contBizCode: s.bizCode, version, items });
    const margin = { kind: 'margin', amount: '8000.00', dueDate: '2026-01-15' };

    // Missing, then changed without a reason: saved as a draft, refused at submission.
    let v = (await saveDues(s.version, [])).version;
    let r = await submit(body, s, v);
    expect([r.status, r.msg]).toEqual([
      400,
      '应收费用缺少「保证金」（按规则应为 10,000.00元），请在应收费用中保存',
    ]);
    v = (await saveDues(v, [margin])).version;
    r = await submit(body, s, v);
    expect([r.status, r.msg]).toEqual([
      400,
      '应收费用「保证金」8,000.00元 与按规则计算的 10,000.00元 不一致，请填写原因',
    ]);
    expect((await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(s.bizCode))).state).toBe('draft');

    // With a reason: kept when the plan is saved again (same figure), and submitted.
    v = (await saveDues(v, [{ ...margin, reason: '老客户，保证金比例经审批下调' }])).version;
    v = (await maker.ok<{ version: number }>(contractApi.schemeSave, { contBizCode: s.bizCode, version: v }))
      .version;
    r = await submit(body, s, v);
    expect(r.status).toBe(200);
    expect((await dues(s.bizCode)).map((d) => [d.kind, d.amount, d.ruleAmount, d.reason])).toEqual([
      ['margin', '8000.00', '10000.00', '老客户，保证金比例经审批下调'],
    ]);
    await checker.ok(contractApi.infoAudit, {}, q(s.bizCode));
  });

  it('the upgrade (migration 0040) gives an undisbursed contract the implied items it lacks', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, {
      fixture: g,
      over: { financingAmount: '100000.00', marginRatio: '0.1' },
    });
    const disbursed = (
      await approvedContract(t, maker, checker, { fixture: g, over: { financingAmount: '50000.00' } })
    ).bizCode;
    await disburse(maker, checker, disbursed);
    // As contracts approved before the rule could be: no dues saved; a disbursed one implying a
    // margin it never had.
    await t.database.db.execute(
      sql`delete from contract_dues where contract_id = (select id from contracts where biz_code = ${bizCode})`,
    );
    await t.database.db.execute(sql`update contracts set margin_ratio = 0.1 where biz_code = ${disbursed}`);
    const migration = readFileSync(join(serverRoot(), 'migrations/0040_implied_dues.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('insert into contract_dues'));
    await t.database.db.execute(sql.raw(backfill));
    expect((await dues(bizCode)).map((d) => [d.kind, d.amount, d.ruleAmount, d.receivedAmount])).toEqual([
      ['margin', '10000.00', '10000.00', '0.00'],
    ]);
    // What was disbursed is left as it was, and an item already there is not made twice.
    expect(await dues(disbursed)).toEqual([]);
    await t.database.db.execute(sql.raw(backfill));
    expect(await dues(bizCode)).toHaveLength(1);
  });

  it('new terms make the implied items again; approval re-checks them', async () => {
    const body = contractBody(g, { financingAmount: '100000.00', marginRatio: '0.1' });
    const s = await draftContract(maker, body);
    const saved = await maker.ok<{ version: number }>(contractApi.dueSave, {
      contBizCode: s.bizCode,
      version: s.version,
      items: [{ kind: 'margin', amount: '8000.00', dueDate: '2026-01-15', reason: '下调' }],
    });
    // A new margin ratio: the reason was given against 10,000.00, so the item is the rule's again.
    const info = await maker.ok<Saved>(contractApi.infoSave, {
      ...body,
      marginRatio: '0.05',
      bizCode: s.bizCode,
      version: saved.version,
    });
    expect((await dues(s.bizCode)).map((d) => [d.kind, d.amount, d.reason])).toEqual([
      ['margin', '5000.00', null],
    ]);
    await submit({ ...body, marginRatio: '0.05' }, s, info.version);
    // A pending contract whose item went missing (as one submitted before this rule could be).
    await t.database.db.execute(
      sql`delete from contract_dues where contract_id = (select id from contracts where biz_code = ${s.bizCode})`,
    );
    const r = await checker.call(contractApi.infoAudit, {}, q(s.bizCode));
    expect([r.status, r.msg]).toEqual([
      409,
      '应收费用缺少「保证金」（按规则应为 5,000.00元），请在应收费用中保存',
    ]);
  });
});

describe('contract change', () => {
  it('refuses a 付款账户 as the changed 还款账户, like the contract’s own save', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
    const pay = await addOwnAccount(maker, 'pay');
    const r = await maker.call(contractApi.changeSave, {
      contBizCode: bizCode,
      reason: '更换还款账户',
      info: { bankBizCode: pay },
    });
    expect([r.status, r.msg]).toEqual([400, '变更后还款账户不能是付款账户']);
    const repay = await addOwnAccount(maker, 'repay');
    await maker.ok(contractApi.changeSave, {
      contBizCode: bizCode,
      reason: '更换还款账户',
      info: { bankBizCode: repay },
    });
  });

  it('lowering the amount releases the difference; the before/after views show both', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, {
      fixture: f,
      over: { financingAmount: '80000.00' },
    });
    const occupiedBefore = new Decimal((await line(f.lineCode)).occupied);
    const init = await maker.ok<{ info: { financingAmount: string } }>(
      contractApi.isChange,
      undefined,
      q(bizCode),
    );
    expect(init.info.financingAmount).toBe('80000.00');
    const c = await maker.ok<Saved>(contractApi.changeSave, {
      contBizCode: bizCode,
      reason: '客户申请降低融资金额',
      info: { financingAmount: '60000.00', maturityDate: '2026-09-15' },
      submit: true,
    });
    expect(c.state).toBe('pending');
    // One open change per contract.
    expect((await maker.call(contractApi.isChange, undefined, q(bizCode))).status).toBe(409);
    const pendingInfo = await maker.ok<BeforeAfter<{ financingAmount: string; maturityDate: string }>>(
      contractApi.chgInfoView,
      undefined,
      q(c.bizCode),
    );
    expect(pendingInfo.before.financingAmount).toBe('80000.00');
    expect(pendingInfo.after.financingAmount).toBe('60000.00');
    expect(pendingInfo.changed.sort()).toEqual(['financingAmount', 'maturityDate']);
    await checker.ok(contractApi.changeAudit, { comment: '同意' }, q(c.bizCode));
    expect(occupiedBefore.minus((await line(f.lineCode)).occupied).toFixed(2)).toBe('20000.00');
    const v = await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(bizCode));
    expect(v).toMatchObject({
      financingAmount: '60000.00',
      maturityDate: '2026-09-15',
      occupiedAmount: '60000.00',
    });
    const plan = await maker.ok<SchemeView>(contractApi.schemeView, undefined, cq(bizCode));
    expect(plan.items.reduce((s, i) => s.plus(i.principal), new Decimal(0)).toFixed(2)).toBe('60000.00');
    expect(plan.items.at(-1)!.dueDate).toBe('2026-09-15');
    const after = await maker.ok<BeforeAfter<{ financingAmount: string }>>(
      contractApi.chgInfoView,
      undefined,
      q(c.bizCode),
    );
    expect(after.before.financingAmount).toBe('80000.00');
    expect(after.after.financingAmount).toBe('60000.00');
    const planView = await maker.ok<BeforeAfter<{ principal: string }[]>>(
      contractApi.chgSchemeView,
      undefined,
      q(c.bizCode),
    );
    expect(planView.before.map((i) => i.principal)).toEqual(['80000.00']);
    expect(planView.after.map((i) => i.principal)).toEqual(['60000.00']);
    const view = await maker.ok<ChangeView>(contractApi.changeView, undefined, q(c.bizCode));
    expect(view.state).toBe('approved');
    // The database keeps the open balances equal to the live items (superseded ones excluded).
    const [open] = await queryRows<{ kept: string; summed: string }>(
      db(),
      sql`select c.principal_open::text as kept,
                 (select sum(principal - principal_paid) from contract_plan_items i
                   where i.contract_id = c.id and i.superseded_by is null)::text as summed
            from contracts c where c.biz_code = ${bizCode}`,
    );
    expect(open).toEqual({ kept: '60000.00', summed: '60000.00' });
  });

  it('raising beyond the credit fails the approval whole', async () => {
    const g = await contractFixture(t, maker, checker, { limit: '100000.00' });
    const { bizCode } = await approvedContract(t, maker, checker, {
      fixture: g,
      over: { financingAmount: '90000.00' },
    });
    const c = await maker.ok<Saved>(contractApi.changeSave, {
      contBizCode: bizCode,
      reason: '提额',
      info: { financingAmount: '110000.00', financingRatio: '0.8' },
      receivables: [receivable('200000.00')],
      submit: true,
    });
    const r = await checker.call(contractApi.changeAudit, {}, q(c.bizCode));
    expect(r.status).toBe(409);
    expect(r.msg).toMatch(/授信额度不足/);
    expect((await line(g.lineCode)).occupied).toBe('90000.00');
    expect((await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(bizCode))).financingAmount).toBe(
      '90000.00',
    );
  });
});

describe('handover sheets', () => {
  it('init, save and submit, approve, list, view', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, {
      fixture: f,
      over: { financingAmount: '10000.00' },
    });
    const init = await maker.ok<{ items: unknown[] }>(
      '/api/ft/api/contract/handover/init',
      undefined,
      cq(bizCode),
    );
    expect(init.items.length).toBeGreaterThan(0);
    const s = await maker.ok<Saved>('/api/ft/api/contract/handover/save', {
      contBizCode: bizCode,
      handoverName: '张三',
      receiverName: '档案室李四',
      handoverDate: '2026-01-15',
      items: init.items,
      submit: true,
    });
    expect(s.state).toBe('pending');
    await checker.ok('/api/ft/api/contract/handover/audit', {}, q(s.bizCode));
    const v = await maker.ok<{ state: string; items: unknown[] }>(
      '/api/ft/api/contract/handover/view',
      undefined,
      q(s.bizCode),
    );
    expect(v.state).toBe('approved');
    expect(v.items).toHaveLength(init.items.length);
    const bad = await maker.call('/api/ft/api/contract/handover/save', {
      contBizCode: bizCode,
      handoverName: '张三',
      receiverName: '李四',
      handoverDate: '2026-01-15',
      items: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe('交接资料不能为空');
  });
});

describe('pickers', () => {
  it('init?platCredBizCode fills the customer and the credit lines', async () => {
    const init = await maker.ok<{ custCode: string; lines: LineFigures[] }>(contractApi.init, undefined, {
      query: { platCredBizCode: f.credBizCode },
    });
    expect(init.custCode).toBe(f.custCode);
    expect(init.lines.map((l) => l.lineCode)).toContain(f.lineCode);
    const lines = await maker.ok<LineFigures[]>(contractApi.credInit, undefined, {
      query: { custCode: f.custCode },
    });
    expect(lines.length).toBeGreaterThan(0);
    const custs = await maker.ok<{ custCode: string }[]>(contractApi.custList);
    expect(custs.map((c) => c.custCode)).toContain(f.custCode);
  });
});
