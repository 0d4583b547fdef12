import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PaidSuggestion } from '@portal/contract/accounts';
import { BUYBACK_PATHS } from '@portal/contract/buyback';
import {
  DEBTOR_PATHS,
  type Concentration,
  type DebtorLineRow,
  type DebtorLineView,
  type DebtorPick,
  type UnmatchedRow,
} from '@portal/contract/debtor';
import type { FtRow } from '@portal/contract/credit';
import { ADMIN_CODE, ALL_CODES } from '@portal/contract/menus';
import { queryRows } from '../../platform/db/client';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker, addCustomer, creditApi, platform } from '../credit/testkit';
import {
  approvedContract,
  contractApi,
  contractBody,
  contractFixture,
  draftContract,
  MONTHLY_RULE,
  receivable,
  submitContract,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi, paidRedApi, reverseWriteOff, submittedPaid } from '../paid/testkit';

const api = servedPaths(DEBTOR_PATHS);
let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let buyer: string;
let core: string;
let fixture: ContractFixture;

const BUYER = '上海浦江建设集团有限公司';
const CORE = '华北核心企业股份有限公司';

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  const db = t.database.db;
  buyer = await addCustomer(db, BUYER, { roles: ['buyer'] });
  core = await addCustomer(db, CORE, { roles: ['core', 'supplier'] });
  await addCustomer(db, '只是供应商有限公司', { roles: ['supplier'] });
  fixture = await contractFixture(t, maker, checker);
}, 120_000);
afterAll(() => t.close());

const db = () => t.database.db;

async function lineOf(debtorCode: string): Promise<DebtorLineRow | undefined> {
  const lines = await maker.ok<DebtorLineRow[]>(api.lines);
  return lines.find((l) => l.debtorCode === debtorCode);
}

/** A line for the debtor, proposed by the maker and approved by the checker. */
async function approvedLine(debtorCode: string, limitAmount: string): Promise<DebtorLineRow> {
  const existing = await lineOf(debtorCode);
  const s = await maker.ok<{ bizCode: string; version: number }>(api.saveLine, {
    debtorCode,
    limitAmount,
    ...(existing ? { bizCode: existing.bizCode, version: existing.version } : {}),
  });
  await checker.ok(api.passLine, { version: s.version }, { query: { bizCode: s.bizCode } });
  return (await lineOf(debtorCode))!;
}

/**
 * Per debtor line: its occupied figure, the Σ of its ledger, and the Σ receivables on the debtor
 * of the effective contracts (what it must hold, docs/credit.md "Debtor lines").
 */
async function figures(codes: string[]) {
  return queryRows<{ code: string; occupied: string; ledger: string; effective: string }>(
    db(),
    sql`select l.debtor_code as code, l.occupied_amount::text as occupied,
               coalesce((select sum(case d.movement when 'occupy' then d.amount when 'release' then -d.amount else 0 end)
                           from debtor_ledger d where d.line_id = l.id), 0)::numeric(20, 2)::text as ledger,
               coalesce((select sum(r.amount) from contract_receivables r join contracts k on k.id = r.contract_id
                          where r.debtor_code = l.debtor_code and k.status = 'effective' and k.deleted_at is null), 0)::numeric(20, 2)::text
                 as effective
          from debtor_lines l
         where l.debtor_code in (${sql.join(
           codes.map((c) => sql`${c}`),
           sql`, `,
         )}) order by 1`,
  );
}

const onDebtor = (amount: string, debtorCode: string, debtorName: string) => ({
  ...receivable(amount),
  debtorCode,
  debtorName,
});

describe('the debtor is a customer', () => {
  it('the picker offers enabled customers in the buyer or core role only', async () => {
    const picks = await maker.ok<DebtorPick[]>(api.dict, {});
    const names = picks.map((p) => p.label);
    expect(names).toContain(BUYER);
    expect(names).toContain(CORE);
    expect(names).not.toContain('只是供应商有限公司');
    expect(picks.find((p) => p.code === buyer)!.usccCode).toMatch(/^91310000CR/);
  });

  it('a chosen debtor must be a buyer or core customer, by its own name; a bare name is linked when exact', async () => {
    const s = await maker.ok<{ bizCode: string; version: number }>(
      creditApi.saveCreditPlatform,
      platform(fixture.custCode),
    );
    const [onlySupplier] = await queryRows<{ code: string }>(
      db(),
      sql`select comp_code as code from companies where comp_name = '只是供应商有限公司'`,
    );
    const item = { limitAmount: '100000.00', financingRatio: '0.8', recourse: 'with' };
    const wrongRole = await maker.call(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [{ ...item, debtorCode: onlySupplier!.code, debtorName: '只是供应商有限公司' }],
    });
    expect([wrongRole.status, wrongRole.msg]).toEqual([
      400,
      '保理授信第1行债务人「只是供应商有限公司」不是买方或核心企业客户',
    ]);
    const wrongName = await maker.call(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [{ ...item, debtorCode: buyer, debtorName: '上海浦江' }],
    });
    expect([wrongName.status, wrongName.msg]).toEqual([400, '保理授信第1行债务人名称与编号不一致']);
    // An older client sending names only: the exact name links, the fragment waits for a person.
    await maker.ok(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [
        { ...item, debtorName: CORE },
        { ...item, debtorName: '上海浦江' },
      ],
    });
    const ft = await maker.ok<FtRow[]>(creditApi.creditFt, undefined, { query: { bizCode: s.bizCode } });
    expect(ft.map((f) => [f.debtorName, f.debtorCode ?? null])).toEqual([
      [CORE, core],
      ['上海浦江', null],
    ]);
    const unmatched = await maker.ok<UnmatchedRow[]>(api.unmatched);
    const row = unmatched.find((u) => u.debtorName === '上海浦江')!;
    expect(row.counts).toEqual({ creditFt: 1 });
    expect(row.docs).toEqual([s.bizCode]);
  });

  it('a person resolves an unmatched name: every row bearing it links to the chosen customer', async () => {
    const body = contractBody(fixture, {
      receivables: [{ ...receivable('150000.00'), debtorName: '上海浦江' }],
      payers: [{ payerName: '上海浦江' }],
    });
    const c = await draftContract(maker, body);
    const before = (await maker.ok<UnmatchedRow[]>(api.unmatched)).find((u) => u.debtorName === '上海浦江')!;
    expect(before.counts).toEqual({ creditFt: 1, contractReceivable: 1, contractPayer: 1 });
    const refused = await maker.call(api.resolve, { debtorName: '上海浦江', debtorCode: fixture.custCode });
    expect(refused.status).toBe(400);
    expect(refused.msg).toMatch(/^债务人「测试供应商\d+有限公司」不是买方或核心企业客户$/);
    const r = await maker.ok<{ linked: number }>(api.resolve, { debtorName: '上海浦江', debtorCode: buyer });
    expect(r.linked).toBe(3);
    expect(
      (await maker.ok<UnmatchedRow[]>(api.unmatched)).find((u) => u.debtorName === '上海浦江'),
    ).toBeUndefined();
    const rows = await queryRows<{ name: string; code: string }>(
      db(),
      sql`select debtor_name as name, debtor_code as code from contract_receivables r join contracts c on c.id = r.contract_id
           where c.biz_code = ${c.bizCode}
          union all select payer_name, payer_code from contract_payers p join contracts c on c.id = p.contract_id
           where c.biz_code = ${c.bizCode}`,
    );
    // The name as typed stays; the code says who it is.
    expect(rows).toEqual([
      { name: '上海浦江', code: buyer },
      { name: '上海浦江', code: buyer },
    ]);
    const again = await maker.call(api.resolve, { debtorName: '上海浦江', debtorCode: buyer });
    expect([again.status, again.msg]).toEqual([400, '没有待匹配的债务人「上海浦江」']);
  });

  it('the 待匹配 list and its resolve see only the documents in the user’s scope', async () => {
    await draftContract(
      maker,
      contractBody(fixture, { receivables: [{ ...receivable('150000.00'), debtorName: '某远方债务人' }] }),
    );
    const dept = await createDept(db(), '丙部');
    const codes = [...ALL_CODES].filter((c) => c !== ADMIN_CODE);
    await createUserWithCodes(db(), 'far-user', 'Far@12345678', codes, {
      deptId: dept.id,
      dataScope: 'dept',
    });
    const far = await t.login('far-user', 'Far@12345678');
    expect(await far.ok<UnmatchedRow[]>(api.unmatched)).toEqual([]);
    const r = await far.call(api.resolve, { debtorName: '某远方债务人', debtorCode: buyer });
    expect([r.status, r.msg]).toEqual([400, '没有待匹配的债务人「某远方债务人」']);
  });
});

describe('debtor lines', () => {
  it('a line is proposed by one person and approved by another; until then the debtor is not limited', async () => {
    const s = await maker.ok<{ bizCode: string; version: number }>(api.saveLine, {
      debtorCode: core,
      limitAmount: '300000.00',
      remark: '年度核定',
    });
    // Pending: not in force, an approval over the figure goes through.
    const first = await approvedContract(t, maker, checker, {
      fixture,
      over: { receivables: [onDebtor('250000.00', core, CORE)] },
    });
    const self = await maker.call(api.passLine, { version: s.version }, { query: { bizCode: s.bizCode } });
    expect([self.status, self.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    const low = await maker.ok<{ version: number }>(api.saveLine, {
      bizCode: s.bizCode,
      version: s.version,
      debtorCode: core,
      limitAmount: '200000.00',
    });
    const under = await checker.call(
      api.passLine,
      { version: low.version },
      { query: { bizCode: s.bizCode } },
    );
    expect([under.status, under.msg]).toEqual([
      409,
      '债务人额度不能低于已占用：债务人「华北核心企业股份有限公司」已占用 250,000.00元，拟定额度 200,000.00元',
    ]);
    const ok = await maker.ok<{ version: number }>(api.saveLine, {
      bizCode: s.bizCode,
      version: low.version,
      debtorCode: core,
      limitAmount: '300000.00',
    });
    await checker.ok(api.passLine, { version: ok.version }, { query: { bizCode: s.bizCode } });
    const view = await maker.ok<DebtorLineView>(api.line, undefined, { query: { bizCode: s.bizCode } });
    expect([view.state, view.limitAmount, view.occupiedAmount, view.pendingLimit]).toEqual([
      'active',
      '300000.00',
      '250000.00',
      null,
    ]);
    expect(view.ledger.map((l) => [l.movement, l.amount, l.docCode])).toEqual([
      ['occupy', '250000.00', s.bizCode],
      ['limit', '300000.00', s.bizCode],
    ]);
    expect(first.bizCode).toMatch(/^\d{12}$/);
  });

  it('a contract approval beyond the line is refused with 409 naming the debtor and the figures; nothing moves', async () => {
    const line = (await lineOf(core))!;
    const body = contractBody(fixture, {
      receivables: [onDebtor('60000.00', core, CORE), onDebtor('80000.00', buyer, BUYER)],
    });
    const saved = await draftContract(maker, body);
    await submitContract(maker, body, saved);
    const r = await checker.call(
      contractApi.infoAudit,
      { comment: '同意' },
      { query: { bizCode: saved.bizCode } },
    );
    expect([r.status, r.msg]).toEqual([
      409,
      '债务人额度不足：债务人「华北核心企业股份有限公司」额度 300,000.00元，已占用 250,000.00元，可用 50,000.00元，本次占用 60,000.00元',
    ]);
    expect((await lineOf(core))!.occupiedAmount).toBe(line.occupiedAmount);
    const [c] = await queryRows<{ state: string; status: string }>(
      db(),
      sql`select state, status from contracts where biz_code = ${saved.bizCode}`,
    );
    expect(c).toEqual({ state: 'pending', status: 'none' });
    // Raised by four eyes, the same approval goes through; a debtor without a line is not limited.
    await approvedLine(core, '400000.00');
    await checker.ok(contractApi.infoAudit, { comment: '同意' }, { query: { bizCode: saved.bizCode } });
    expect((await lineOf(core))!.occupiedAmount).toBe('310000.00');
  });

  it('the concentration view ranks exposure by debtor with its share of the portfolio', async () => {
    const c = await maker.ok<Concentration>(api.concentration);
    // Effective: 250,000.00 + 60,000.00 on the core enterprise, 80,000.00 on the buyer.
    expect(c.total).toBe('390000.00');
    expect(c.top.map((r) => [r.debtorName, r.exposure, r.share, r.contracts, r.limitAmount])).toEqual([
      [CORE, '310000.00', '79.49', 2, '400000.00'],
      [BUYER, '80000.00', '20.51', 1, null],
    ]);
    expect([c.topShare, c.debtors, c.unmatched]).toEqual(['100.00', 2, '0.00']);
  });
});

describe('the debtor line follows the contract to its end', { timeout: 300_000 }, () => {
  const NAME = '还款债务人有限公司';
  const ON = '2026-04-01';
  const buybackApi = servedPaths(BUYBACK_PATHS);
  let money: ContractFixture;
  let debtor: string;

  beforeAll(async () => {
    money = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
    debtor = await addCustomer(db(), NAME, { roles: ['buyer'] });
    await approvedLine(debtor, '200000.00');
  }, 300_000);
  afterAll(() => t.portal.clock.set(undefined));

  const used = async () => (await lineOf(debtor))!.occupiedAmount;

  /** A contract financing 80 % of `amount` of receivables on the debtor, disbursed. */
  async function running(amount = '150000.00', code = debtor, name = NAME): Promise<string> {
    t.portal.clock.set('2026-01-15');
    const { bizCode } = await approvedContract(t, maker, checker, {
      fixture: money,
      over: {
        financingAmount: new Decimal(amount).times('0.8').toFixed(2),
        receivables: [onDebtor(amount, code, name)],
      },
    });
    await disburse(maker, checker, bizCode);
    t.portal.clock.set(ON);
    return bizCode;
  }

  /** An early settlement (提前结清) of the whole contract on ON, submitted; answers its code. */
  async function submittedSettlement(contBizCode: string): Promise<string> {
    const fiidBizCode = await approvedIncome(maker, checker, money.bankBizCode, '200000.00', ON);
    const quote = await maker.ok<PaidSuggestion>(paidApi.getSpecialPlanInfo, {
      fiidBizCode,
      contBizCode,
      paidDate: ON,
      mode: 'settlement',
    });
    const s = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
      fiidBizCode,
      contBizCode,
      paidDate: ON,
      kind: 'settlement',
      lines: quote.lines.map((l) => ({ itemId: l.itemId, component: l.component, amount: l.amount })),
      submit: true,
    });
    return s.paidBizCode;
  }

  /** The same, approved. */
  async function settle(contBizCode: string): Promise<string> {
    const paidBizCode = await submittedSettlement(contBizCode);
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode } });
    return paidBizCode;
  }

  const movements = async () =>
    (
      await maker.ok<DebtorLineView>(api.line, undefined, {
        query: { bizCode: (await lineOf(debtor))!.bizCode },
      })
    ).ledger;

  it('approve → partial write-off → settlement → red reversal: the line holds the receivables while the contract runs', async () => {
    const c = await running();
    expect(await used()).toBe('150000.00');
    // A partial repayment leaves the receivable financed on the debtor: nothing moves.
    const fiid = await approvedIncome(maker, checker, money.bankBizCode, '20000.00', ON);
    const part = await submittedPaid(maker, fiid, c, ON, '20000.00');
    await checker.ok(paidApi.audit, {}, { query: { paidBizCode: part.paidBizCode } });
    expect(await used()).toBe('150000.00');
    // Settled: the contract holds nothing on the debtor any more.
    const settled = await settle(c);
    expect(await used()).toBe('0.00');
    expect((await movements()).slice(0, 2).map((m) => [m.movement, m.amount, m.docType, m.docCode])).toEqual([
      ['release', '150000.00', 'paid', settled],
      ['occupy', '150000.00', 'contract', c],
    ]);
    // The settlement's red reversal reopens the contract: its receivables hold the line again.
    const red = await reverseWriteOff(maker, checker, settled);
    expect(await used()).toBe('150000.00');
    expect((await movements())[0]).toMatchObject({
      movement: 'occupy',
      amount: '150000.00',
      docType: 'paidRed',
      docCode: red,
    });
    // Reversing the partial write-off leaves a running contract running: nothing moves.
    await reverseWriteOff(maker, checker, part.paidBizCode);
    expect(await used()).toBe('150000.00');
    const [f] = await figures([debtor]);
    expect([f!.occupied, f!.ledger, f!.effective]).toEqual(['150000.00', '150000.00', '150000.00']);
  });

  it('a red reversal needing room another contract took is refused with 409; nothing moves', async () => {
    const [open] = await queryRows<{ code: string }>(
      db(),
      sql`select k.biz_code as code from contracts k join contract_receivables r on r.contract_id = k.id
           where r.debtor_code = ${debtor} and k.status = 'effective'`,
    );
    const settled = await settle(open!.code);
    expect(await used()).toBe('0.00');
    await running('100000.00');
    expect(await used()).toBe('100000.00');
    const { paidRedBizCode } = await maker.ok<{ paidRedBizCode: string }>(
      paidApi.rushRed,
      { reason: '串户' },
      { query: { paidBizCode: settled } },
    );
    const r = await checker.call(paidRedApi.audit, {}, { query: { paidRedBizCode } });
    expect([r.status, r.msg]).toEqual([
      409,
      `债务人额度不足：债务人「${NAME}」额度 200,000.00元，已占用 100,000.00元，可用 100,000.00元，本次占用 150,000.00元`,
    ]);
    expect(await used()).toBe('100000.00');
    const [k] = await queryRows<{ status: string }>(
      db(),
      sql`select status from contracts where biz_code = ${open!.code}`,
    );
    expect(k!.status).toBe('settled');
  });

  it('a 回购单 gives the receivable back to the seller and frees the line; its 冲红 takes it again', async () => {
    await approvedLine(debtor, '400000.00');
    const c = await running();
    expect(await used()).toBe('250000.00');
    const s = await maker.ok<{ buybackBizCode: string }>(buybackApi.saveBaseInfo, {
      contBizCode: c,
      buybackDate: ON,
      submit: true,
    });
    await checker.ok(buybackApi.audit, { comment: '同意' }, { query: { buybackBizCode: s.buybackBizCode } });
    expect(await used()).toBe('100000.00');
    expect((await movements())[0]).toMatchObject({
      movement: 'release',
      amount: '150000.00',
      docType: 'paid',
    });
    await maker.ok(
      buybackApi.rushRed,
      { reason: '债务人已付款' },
      { query: { buybackBizCode: s.buybackBizCode } },
    );
    expect(await used()).toBe('250000.00');
    expect((await movements())[0]).toMatchObject({
      movement: 'occupy',
      amount: '150000.00',
      docType: 'paidRed',
    });
    const [f] = await figures([debtor]);
    expect([f!.occupied, f!.ledger, f!.effective]).toEqual(['250000.00', '250000.00', '250000.00']);
  });
  it.runIf(onPostgres)(
    'settlements and approvals racing on one line (PostgreSQL) queue on its lock: never beyond the limit, the ledger sums back',
    async () => {
      const E = '并发还款债务人有限公司';
      const e = await addCustomer(db(), E, { roles: ['buyer'] });
      await approvedLine(e, '200000.00');
      // Four running contracts fill the line; their settlements and eight new contracts are
      // approved at once: each approval finds exactly the room the settlements before it freed.
      const settlements: string[] = [];
      for (let i = 0; i < 4; i++)
        settlements.push(await submittedSettlement(await running('50000.00', e, E)));
      const pending: string[] = [];
      for (let i = 0; i < 8; i++) {
        const body = contractBody(money, {
          financingAmount: '40000.00',
          receivables: [onDebtor('50000.00', e, E)],
        });
        const saved = await draftContract(maker, body);
        await submitContract(maker, body, saved);
        pending.push(saved.bizCode);
      }
      const [paid, approved] = await Promise.all([
        Promise.all(settlements.map((c) => checker.call(paidApi.audit, {}, { query: { paidBizCode: c } }))),
        Promise.all(
          pending.map((bizCode) =>
            checker.call(contractApi.infoAudit, { comment: '同意' }, { query: { bizCode } }),
          ),
        ),
      ]);
      expect(paid.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const ok = approved.filter((r) => r.status === 200).length;
      console.info(`debtor line: 4 settlements and 8 approvals at once, ${ok} approved`);
      expect(ok).toBeLessThanOrEqual(4);
      for (const r of approved.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.msg).toMatch(new RegExp(`^债务人额度不足：债务人「${E}」额度 200,000.00元`));
      }
      const [f] = await figures([e]);
      const held = new Decimal(ok).times(50000).toFixed(2);
      expect([f!.occupied, f!.ledger, f!.effective]).toEqual([held, held, held]);
      // Every settlement's release landed: the refused contracts, approved again one by one, fill
      // exactly the four places the settlements freed.
      const again: number[] = [];
      for (const [i, r] of approved.entries()) {
        if (r.status === 200) continue;
        const q = { query: { bizCode: pending[i]! } };
        again.push((await checker.call(contractApi.infoAudit, { comment: '同意' }, q)).status);
      }
      expect(again.filter((s) => s === 200)).toHaveLength(4 - ok);
      const [full] = await figures([e]);
      expect([full!.occupied, full!.ledger, full!.effective]).toEqual([
        '200000.00',
        '200000.00',
        '200000.00',
      ]);
    },
  );
});

describe.skipIf(!onPostgres)('concurrent approvals on one debtor line (PostgreSQL)', () => {
  it(
    'never occupy beyond the line, never deadlock, and the ledger sums back to the figure',
    { timeout: 300_000 },
    async () => {
      const d1 = await addCustomer(db(), '并发债务人甲有限公司', { roles: ['buyer'] });
      const d2 = await addCustomer(db(), '并发债务人乙有限公司', { roles: ['buyer'] });
      await approvedLine(d1, '100000.00');
      await approvedLine(d2, '1000000.00');
      // 12 contracts of 10,000.00 on 甲 (and 1.00 on 乙, listed first: the locks go in code order).
      const pending: string[] = [];
      for (let i = 0; i < 12; i++) {
        const body = contractBody(fixture, {
          financingAmount: '8000.00',
          receivables: [
            onDebtor('1.00', d2, '并发债务人乙有限公司'),
            onDebtor('10000.00', d1, '并发债务人甲有限公司'),
          ],
        });
        const saved = await draftContract(maker, body);
        await submitContract(maker, body, saved);
        pending.push(saved.bizCode);
      }
      const results = await Promise.all(
        pending.map((bizCode) =>
          checker.call(contractApi.infoAudit, { comment: '同意' }, { query: { bizCode } }),
        ),
      );
      const ok = results.filter((r) => r.status === 200).length;
      expect(ok).toBe(10);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.msg).toMatch(/^债务人额度不足：债务人「并发债务人甲有限公司」额度 100,000.00元/);
      }
      const sums = await figures([d1, d2]);
      expect(sums.map((s) => [s.occupied, s.ledger])).toEqual(
        [d1, d2].sort().map((c) => (c === d1 ? ['100000.00', '100000.00'] : ['10.00', '10.00'])),
      );
    },
  );
});
