import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { CONTRACT_PATHS, type InfoSave, type PlanItemView } from '@portal/contract/contract';
import { RULER_PATHS } from '@portal/contract/ruler';
import type { InterestRuleCalcInput } from '@portal/contract/plan/rule';
import { queryRows } from '../../platform/db/client';
import {
  OPENING_CONTRACT_COLUMNS,
  OPENING_CONTRACT_SHEET,
  OPENING_PAID_COLUMNS,
  OPENING_PAID_SHEET,
  type OpeningResult,
} from '@portal/contract/opening';
import type { PlanResult } from '@portal/contract/plan/schedule';
import { servedPaths, type TestClient, type TestPortal } from '../../testing/harness';
import { uploadWorkbook } from '../../testing/xlsx-upload';
import { addCustomer, approvedCredit } from '../credit/testkit';

/**
 * Test helpers of the contract module, for its tests and for the modules that build on contracts
 * (prepayments, write-offs, print, dashboard). Everything goes through the real API.
 * The test portal's business date is 2026-01-15.
 */
export const contractApi = servedPaths(CONTRACT_PATHS);

export const BULLET_RULE: InterestRuleCalcInput = {
  annualRate: '0.0720',
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRate: '0',
  feeCollection: 'BACK',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 0,
};

export const MONTHLY_RULE: InterestRuleCalcInput = {
  ...BULLET_RULE,
  method: 'EQUAL_PRINCIPAL',
};

let n = 0;

export async function addRule(
  maker: TestClient,
  calc: InterestRuleCalcInput = BULLET_RULE,
  name?: string,
): Promise<string> {
  n++;
  const r = await maker.ok<{ bizCode: string }>(`/api${RULER_PATHS.save}`, {
    ...calc,
    name: name ?? `测试规则${n}`,
    state: 'enabled',
  });
  return r.bizCode;
}

/** Our own receiving account (the contract's repayment account). */
export async function addOwnAccount(maker: TestClient, purpose = 'collect'): Promise<string> {
  n++;
  const r = await maker.ok<{ bizCode: string }>('/api/ft/api/bank/save', {
    ownerType: 'self',
    bankCode: '102',
    branchName: '上海分行营业部',
    accountName: '测试保理有限公司',
    accountNo: `6222${String(Date.now() % 1e9).padStart(9, '0')}${String(n).padStart(4, '0')}`,
    purpose,
  });
  return r.bizCode;
}

export async function platformLineOf(t: TestPortal, credBizCode: string): Promise<string> {
  const rows = await queryRows<{ code: string }>(
    t.database.db,
    sql`select l.biz_code as code from credit_lines l join credits c on c.id = l.credit_id
         where c.biz_code = ${credBizCode} and l.kind = 'platform'`,
  );
  return rows[0]!.code;
}

let invoice = 0;
/** A receivable (invoice) dated before the test business date. */
export function receivable(amount: string, dueDate = '2026-06-30') {
  invoice++;
  return {
    invoiceCode: '3100261130',
    invoiceNo: String(10_000_000 + invoice),
    invoiceDate: '2026-01-10',
    amount,
    debtorName: '核心买方有限公司',
    dueDate,
  };
}

export interface ContractFixture {
  custCode: string;
  credBizCode: string;
  lineCode: string;
  ruleBizCode: string;
  bankBizCode: string;
}

/** A customer with an approved credit (limit given), a rule and our repayment account. */
export async function contractFixture(
  t: TestPortal,
  maker: TestClient,
  checker: TestClient,
  opts: { limit?: string; cycle?: 'cyclical' | 'oneOff'; rule?: InterestRuleCalcInput } = {},
): Promise<ContractFixture> {
  n++;
  const custCode = await addCustomer(t.database.db, `测试供应商${n}有限公司`);
  const credBizCode = await approvedCredit(maker, checker, custCode, {
    over: { limitAmount: opts.limit ?? '1000000.00', cycle: opts.cycle ?? 'cyclical' },
  });
  return {
    custCode,
    credBizCode,
    lineCode: await platformLineOf(t, credBizCode),
    ruleBizCode: await addRule(maker, opts.rule),
    bankBizCode: await addOwnAccount(maker),
  };
}

export function contractBody(f: ContractFixture, over: Partial<InfoSave> = {}): InfoSave {
  n++;
  return {
    contractNo: `BL-2026-${String(n).padStart(4, '0')}`,
    recourse: 'with',
    // 暗保理: other modules' disbursements need no 转让通知 (assignment.test.ts tests the disclosed rule).
    disclosure: 'undisclosed',
    product: 'factoring',
    custCode: f.custCode,
    platCredBizCode: f.credBizCode,
    lineCode: f.lineCode,
    financingRatio: '0.8',
    financingAmount: '100000.00',
    currency: 'CNY',
    startDate: '2026-01-15',
    maturityDate: '2026-07-15',
    ruleBizCode: f.ruleBizCode,
    bankBizCode: f.bankBizCode,
    receivables: [receivable('150000.00')],
    payers: [{ payerName: '核心买方有限公司', accountNo: '6222000011112222', bankName: '工商银行' }],
    ...over,
  };
}

export interface Saved {
  bizCode: string;
  version: number;
  state: string;
}

/** Saves a contract and its generated plan; answers it as a draft ready to submit. */
export async function draftContract(maker: TestClient, body: InfoSave): Promise<Saved> {
  const s = await maker.ok<Saved>(contractApi.infoSave, body);
  const scheme = await maker.ok<{ version: number }>(contractApi.schemeSave, {
    contBizCode: s.bizCode,
    version: s.version,
  });
  return { ...s, version: scheme.version };
}

export async function submitContract(maker: TestClient, body: InfoSave, saved: Saved): Promise<Saved> {
  return maker.ok<Saved>(contractApi.infoSave, {
    ...body,
    bizCode: saved.bizCode,
    version: saved.version,
    submit: true,
  });
}

/**
 * An approved contract (plan live, financing occupied on the credit line): the fixture is created
 * unless given. Answers the contract code and its fixture.
 */
export async function approvedContract(
  t: TestPortal,
  maker: TestClient,
  checker: TestClient,
  opts: {
    fixture?: ContractFixture;
    over?: Partial<InfoSave>;
    limit?: string;
    cycle?: 'cyclical' | 'oneOff';
    rule?: InterestRuleCalcInput;
  } = {},
): Promise<{ bizCode: string; fixture: ContractFixture }> {
  const fixture = opts.fixture ?? (await contractFixture(t, maker, checker, opts));
  const body = contractBody(fixture, opts.over);
  const saved = await draftContract(maker, body);
  await submitContract(maker, body, saved);
  await checker.ok(contractApi.infoAudit, { comment: '同意' }, { query: { bizCode: saved.bizCode } });
  return { bizCode: saved.bizCode, fixture };
}

/**
 * An approved contract of `amount` from `startDate` to `maturityDate` on the fixture's line, on
 * receivables of 1.5 × the amount due at maturity; answers its code.
 */
export async function approvedFor(
  t: TestPortal,
  maker: TestClient,
  checker: TestClient,
  fixture: ContractFixture,
  amount: string,
  startDate: string,
  maturityDate: string,
): Promise<string> {
  const over = {
    financingAmount: amount,
    startDate,
    maturityDate,
    receivables: [receivable(new Decimal(amount).times(1.5).toFixed(2), maturityDate)],
  };
  return (await approvedContract(t, maker, checker, { fixture, over })).bizCode;
}

/** The code of the contract's 放款单 in force (null: not disbursed). */
export async function loanOf(maker: TestClient, contBizCode: string): Promise<string | null> {
  const info = await maker.ok<{ loanBizCode: string | null }>(contractApi.infoView, undefined, {
    query: { bizCode: contBizCode },
  });
  return info.loanBizCode;
}

/**
 * What the plan view says of a contract, in the ledger's terms: the open principal, and over the
 * items 逾期 the longest overdue days, the open principal + interest + fee and the penalty owed.
 */
export function planFigures(items: readonly PlanItemView[]) {
  const total = (xs: readonly PlanItemView[], pick: (i: PlanItemView) => Decimal) =>
    xs.reduce((s, i) => s.plus(pick(i)), new Decimal(0)).toFixed(2);
  const late = items.filter((i) => i.status === '逾期');
  return {
    principal: total(items, (i) => new Decimal(i.principal).minus(i.principalPaid)),
    overdueDays: Math.max(0, ...late.map((i) => i.overdueDays)),
    overdue: total(late, (i) =>
      new Decimal(i.principal)
        .plus(i.interest)
        .plus(i.fee)
        .minus(i.principalPaid)
        .minus(i.interestPaid)
        .minus(i.feePaid),
    ),
    penalty: total(late, (i) => new Decimal(i.penalty).minus(i.penaltyPaid)),
  };
}

/**
 * 期初导入 of one contract of `f`'s rule (120,000.00 from 2026-01-10 to 2027-01-10, 放款 that day),
 * its first two periods repaid before the import; its 合同号 and invoice number given. Returns the
 * imported contract's code.
 */
export async function openingImport(
  admin: TestClient,
  f: ContractFixture,
  contractNo: string,
  invoiceNo: string,
): Promise<string> {
  const plan = await admin.ok<PlanResult>(contractApi.planAdd, {
    financingAmount: '120000.00',
    startDate: '2026-01-10',
    maturityDate: '2027-01-10',
    ruleBizCode: f.ruleBizCode,
  });
  const cells: Partial<Record<(typeof OPENING_CONTRACT_COLUMNS)[number]['key'], string>> = {
    contractNo,
    custCode: f.custCode,
    platCredBizCode: f.credBizCode,
    lineCode: f.lineCode,
    recourse: '有追索',
    disclosure: '暗保理',
    product: '保理',
    financingRatio: '0.8',
    financingAmount: '120000.00',
    startDate: '2026-01-10',
    maturityDate: '2027-01-10',
    ruleBizCode: f.ruleBizCode,
    bankBizCode: f.bankBizCode,
    debtorName: '期初买方有限公司',
    invoiceCode: '3100261130',
    invoiceNo,
    invoiceDate: '2025-12-20',
    receivableAmount: '150000.00',
    receivableDueDate: '2027-01-10',
    loanDate: '2026-01-10',
    loanAmount: '120000.00',
  };
  const paid = plan.items
    .slice(0, 2)
    .map((i, k) => [contractNo, String(k + 1), i.principal, i.interest, i.fee]);
  const res = await uploadWorkbook(
    admin,
    contractApi.openingImport,
    [
      {
        name: OPENING_CONTRACT_SHEET,
        rows: [
          OPENING_CONTRACT_COLUMNS.map((c) => c.header),
          OPENING_CONTRACT_COLUMNS.map((c) => (cells as Record<string, string>)[c.key] ?? ''),
        ],
      },
      { name: OPENING_PAID_SHEET, rows: [OPENING_PAID_COLUMNS.map((c) => c.header), ...paid] },
    ],
    { mode: 'all' },
  );
  if (res.status !== 200) throw new Error(`期初导入 refused: ${res.status} ${res.msg}`);
  return (res.data as OpeningResult).imported[0]!;
}
