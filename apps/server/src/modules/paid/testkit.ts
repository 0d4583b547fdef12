import { sql } from 'drizzle-orm';
import {
  INCOME_PATHS,
  PAID_PATHS,
  PAID_RED_PATHS,
  type PaidSuggestion,
  type ValidPlan,
} from '@portal/contract/accounts';
import { queryRows, type Database } from '../../platform/db/client';
import { servedPaths, type TestClient } from '../../testing/harness';

/**
 * Test helpers of the money modules (incomings, write-offs, red entries), through the real API.
 */
export const incomeApi = servedPaths(INCOME_PATHS);
export const paidApi = servedPaths(PAID_PATHS);
export const paidRedApi = servedPaths(PAID_RED_PATHS);

let serial = 0;

/** An incoming on our account, saved and submitted by the maker, approved by the checker. */
export async function approvedIncome(
  maker: TestClient,
  checker: TestClient,
  bankBizCode: string,
  amount: string,
  valueDate: string,
  payerName = '核心买方有限公司',
): Promise<string> {
  serial++;
  const s = await maker.ok<{ fiidBizCode: string }>(incomeApi.saveBaseInfo, {
    bankBizCode,
    payerName,
    payerAccount: '6222000011112222',
    payerBank: '工商银行',
    amount,
    valueDate,
    serialNo: `SN${Date.now()}${serial}`,
    submit: true,
  });
  await checker.ok(incomeApi.audit, { comment: '同意' }, { query: { fiidBizCode: s.fiidBizCode } });
  return s.fiidBizCode;
}

/** A normal write-off of `amount` (default: the whole balance) as the rule allocates it, submitted. */
export async function submittedPaid(
  maker: TestClient,
  fiidBizCode: string,
  contBizCode: string,
  paidDate: string,
  amount?: string,
): Promise<{ paidBizCode: string; suggestion: PaidSuggestion }> {
  const suggestion = await maker.ok<PaidSuggestion>(paidApi.getPaiPlanInfo, {
    fiidBizCode,
    contBizCode,
    paidDate,
    ...(amount ? { amount } : {}),
  });
  const s = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
    fiidBizCode,
    contBizCode,
    paidDate,
    kind: 'normal',
    lines: suggestion.lines.map((l) => ({ itemId: l.itemId, component: l.component, amount: l.amount })),
    submit: true,
  });
  return { paidBizCode: s.paidBizCode, suggestion };
}

/** An approved normal write-off of `amount` from a new incoming on `bankBizCode`, as the rule allocates it. */
export async function ruleWriteOff(
  maker: TestClient,
  checker: TestClient,
  bankBizCode: string,
  contBizCode: string,
  date: string,
  amount: string,
): Promise<string> {
  const fiid = await approvedIncome(maker, checker, bankBizCode, amount, date);
  const w = await submittedPaid(maker, fiid, contBizCode, date);
  await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
  return w.paidBizCode;
}

/**
 * An approved manual write-off of `principal` to the first open item's principal, from a new
 * incoming of that amount on `bankBizCode`; answers its code.
 */
export async function principalWriteOff(
  maker: TestClient,
  checker: TestClient,
  bankBizCode: string,
  contBizCode: string,
  date: string,
  principal: string,
): Promise<string> {
  const fiidBizCode = await approvedIncome(maker, checker, bankBizCode, principal, date);
  const plan = await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, {
    query: { contBizCode, paidDate: date },
  });
  const w = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
    fiidBizCode,
    contBizCode,
    paidDate: date,
    kind: 'manual',
    lines: [{ itemId: plan.items[0]!.itemId, component: 'PRINCIPAL', amount: principal }],
    submit: true,
  });
  await checker.ok(paidApi.audit, {}, { query: { paidBizCode: w.paidBizCode } });
  return w.paidBizCode;
}

/** 冲红 of an approved write-off, dated the business date: asked by the maker, approved by the checker. */
export async function reverseWriteOff(
  maker: TestClient,
  checker: TestClient,
  paidBizCode: string,
  reason = '串户',
): Promise<string> {
  const { paidRedBizCode } = await maker.ok<{ paidRedBizCode: string }>(
    paidApi.rushRed,
    { reason },
    { query: { paidBizCode } },
  );
  await checker.ok(paidRedApi.audit, {}, { query: { paidRedBizCode } });
  return paidRedBizCode;
}

/** Every money figure a write-off and its reversal touch, for before/after comparisons. */
export async function moneySnapshot(
  db: Database['db'],
  contBizCode: string,
  fiidBizCode: string,
  lineCode: string,
) {
  const items = await queryRows(
    db,
    sql`select period, principal::text, interest::text, fee::text, principal_paid::text, interest_paid::text,
               fee_paid::text, penalty_paid::text
          from contract_plan_items i join contracts c on c.id = i.contract_id
         where c.biz_code = ${contBizCode} and i.superseded_by is null order by period`,
  );
  const [contract] = await queryRows<{ status: string; occupied: string; principalOpen: string }>(
    db,
    sql`select status, occupied_amount::text as occupied, principal_open::text as "principalOpen"
          from contracts where biz_code = ${contBizCode}`,
  );
  const [income] = await queryRows<{ amount: string; allocated: string }>(
    db,
    sql`select amount::text, allocated::text from incomes where biz_code = ${fiidBizCode}`,
  );
  const [line] = await queryRows<{ occupied: string }>(
    db,
    sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${lineCode}`,
  );
  return { items, contract, income, line };
}
