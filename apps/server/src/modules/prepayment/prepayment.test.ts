import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { sql } from 'drizzle-orm';
import {
  NOT_CASH_MESSAGE,
  PA_METHOD_LABELS,
  PA_PATHS,
  type PaInit,
  type PaRow,
  type PaView,
} from '@portal/contract/prepayment';
import type { DueView } from '@portal/contract/contract';
import {
  createTestPortal,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  contractBody,
  contractFixture,
  draftContract,
  contractApi,
  submitContract,
  type ContractFixture,
} from '../contract/testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const prepaymentApi = servedPaths(PA_PATHS);
const pq = (preamtBizCode: string) => ({ query: { preamtBizCode } });
const cq = (contBizCode: string) => ({ query: { contBizCode } });

/** An approved 100,000.00 contract with a 10 % margin due (10,000.00). */
async function contractWithMargin(): Promise<string> {
  const body = contractBody(f, { marginRatio: '0.1' });
  const s = await draftContract(maker, body);
  const dues = await maker.ok<{ kind: string; amount: string; dueDate: string }[]>(
    contractApi.due,
    undefined,
    cq(s.bizCode),
  );
  const d = await maker.ok<{ version: number }>(contractApi.dueSave, {
    contBizCode: s.bizCode,
    version: s.version,
    items: dues,
  });
  await submitContract(maker, body, { ...s, version: d.version });
  await checker.ok(contractApi.infoAudit, {}, { query: { bizCode: s.bizCode } });
  return s.bizCode;
}

async function savePa(cont: string, dueId: number, amount: string, over: Record<string, unknown> = {}) {
  return maker.call<{ preamtBizCode: string }>(prepaymentApi.saveBaseInfo, {
    contBizCode: cont,
    method: 'transfer',
    bankBizCode: f.bankBizCode,
    receiveDate: '2026-01-15',
    lines: [{ dueId, amount }],
    submit: true,
    ...over,
  });
}

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '5000000.00' });
});
afterAll(() => t.close());

describe('prepayment (前期款)', () => {
  it('is prefilled from the contract, receives the due on approval, never beyond it, and 放款 then deducts nothing', async () => {
    const cont = await contractWithMargin();
    const init = await maker.ok<PaInit>(prepaymentApi.initBase, undefined, cq(cont));
    expect(init.dues.map((d) => [d.kind, d.openAmount])).toEqual([['margin', '10000.00']]);
    const due = init.dues[0]!.dueId;
    const first = await savePa(cont, due, '4000.00');
    expect(first.status).toBe(200);
    // Nothing is received before approval.
    const dues = () => maker.ok<DueView[]>(contractApi.dueView, undefined, cq(cont));
    expect((await dues())[0]!.receivedAmount).toBe('0.00');
    await checker.ok(prepaymentApi.audit, {}, pq(first.data!.preamtBizCode));
    expect((await dues())[0]!.receivedAmount).toBe('4000.00');
    const view = await maker.ok<PaView>(prepaymentApi.viewBaseInfo, undefined, pq(first.data!.preamtBizCode));
    expect(view).toMatchObject({ state: 'approved', amount: '4000.00', contBizCode: cont });
    expect(view.lines[0]).toMatchObject({ kind: 'margin', lineAmount: '4000.00', receivedAmount: '4000.00' });

    const over = await savePa(cont, due, '6000.01');
    expect(over.status).toBe(409);
    expect(over.msg).toBe('收取金额 6,000.01元 超过该项待收金额 6,000.00元');
    const future = await savePa(cont, due, '1.00', { receiveDate: '2026-01-16', submit: false });
    expect(future.msg).toBe('收取日期不能晚于营业日 2026-01-15');

    // A draft is deleted; the list shows the approved one.
    const draft = await savePa(cont, due, '1.00', { submit: false });
    await maker.ok(prepaymentApi.deleteInfo, undefined, pq(draft.data!.preamtBizCode));
    const list = await maker.ok<Page<PaRow>>(prepaymentApi.list, { contBizCode: cont });
    expect(list.list.map((r) => [r.amount, r.state])).toEqual([['4000.00', 'approved']]);

    const rest = await savePa(cont, due, '6000.00');
    await checker.ok(prepaymentApi.audit, {}, pq(rest.data!.preamtBizCode));
    expect((await maker.call(prepaymentApi.initBase, undefined, cq(cont))).msg).toBe(
      '该合同没有待收的前期款项',
    );
    // Received in full before financing: the 放款单 deducts nothing (the margin is never taken twice).
    const loan = await maker.ok<{ netAmount: string }>(contractApi.isLoan, undefined, {
      query: { bizCode: cont },
    });
    expect(loan.netAmount).toBe('100000.00');
  });
});

describe('a prepayment is cash (docs/money-lifecycle.md "A prepayment is cash")', () => {
  it('refuses 放款时扣收 on save, and on approval of a draft made before the rule; the due stays open', async () => {
    const cont = await contractWithMargin();
    const due = (await maker.ok<PaInit>(prepaymentApi.initBase, undefined, cq(cont))).dues[0]!.dueId;
    const deduct = await savePa(cont, due, '10000.00', { method: 'deduct' });
    expect([deduct.status, deduct.msg]).toEqual([400, NOT_CASH_MESSAGE]);
    expect(NOT_CASH_MESSAGE).toContain('收取方式');

    // A document submitted with 放款时扣收 before this release: it reads as such, approval refuses it.
    const old = (await savePa(cont, due, '10000.00')).data!.preamtBizCode;
    await t.database.db.execute(sql`update prepayments set method = 'deduct' where biz_code = ${old}`);
    const view = await maker.ok<PaView>(prepaymentApi.viewBaseInfo, undefined, pq(old));
    expect([view.method, PA_METHOD_LABELS[view.method]]).toEqual(['deduct', '放款时扣收（旧）']);
    const listed = await maker.ok<Page<PaRow>>(prepaymentApi.list, { preamtBizCode: old });
    expect(listed.list.map((r) => r.method)).toEqual(['deduct']);
    const audit = await checker.call(prepaymentApi.audit, {}, pq(old));
    expect([audit.status, audit.msg]).toEqual([409, NOT_CASH_MESSAGE]);
    const dues = await maker.ok<DueView[]>(contractApi.dueView, undefined, cq(cont));
    expect(dues[0]!.receivedAmount).toBe('0.00');
    // Nothing received: the 放款单 deducts the margin.
    const loan = await maker.ok<{ netAmount: string }>(contractApi.isLoan, undefined, {
      query: { bizCode: cont },
    });
    expect(loan.netAmount).toBe('90000.00');
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  it('prepayments approved concurrently never receive a due beyond its amount', async () => {
    const cont = await contractWithMargin();
    const init = await maker.ok<PaInit>(prepaymentApi.initBase, undefined, cq(cont));
    const codes: string[] = [];
    for (let i = 0; i < 20; i++)
      codes.push((await savePa(cont, init.dues[0]!.dueId, '1000.00')).data!.preamtBizCode);
    const results = await Promise.all(codes.map((c) => checker.call(prepaymentApi.audit, {}, pq(c))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const dues = await maker.ok<DueView[]>(contractApi.dueView, undefined, cq(cont));
    expect(dues[0]!.receivedAmount).toBe('10000.00');
  });
});
