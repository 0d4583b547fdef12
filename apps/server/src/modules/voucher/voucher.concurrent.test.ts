import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidPlan } from '@portal/contract/accounts';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { createTestPortal, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE, type ContractFixture } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { approvedIncome, paidApi } from '../paid/testkit';
import { postEvent } from './service';
import { voucherReader } from './testkit';

/**
 * Many money approvals at once (issue 42 §3, docs/accounting.md "Numbers"): each approved one has
 * its voucher, numbered when its transaction commits; the numbers of every month are unique and
 * run 1, 2, 3 … without a gap, also when refused approvals and postings rolled back after their
 * voucher was written ran among them. On PGlite the transactions queue on its one connection; on
 * PostgreSQL they overlap.
 */
let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const ON = '2026-04-01';

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '5000000.00', rule: MONTHLY_RULE });
}, 120_000);
afterAll(() => t.close());

async function disbursedContract(): Promise<string> {
  t.portal.clock.set('2026-01-15');
  const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
  await disburse(maker, checker, bizCode);
  t.portal.clock.set(ON);
  return bizCode;
}

/** A saved and submitted write-off of 500.00 principal to the contract's last item. */
async function submitted(fiidBizCode: string, contBizCode: string, paidDate: string): Promise<string> {
  const item = (
    await maker.ok<ValidPlan>(paidApi.getValidPlanPaid, undefined, { query: { contBizCode, paidDate } })
  ).items.at(-1)!;
  const s = await maker.ok<{ paidBizCode: string }>(paidApi.savePlanPaidInfo, {
    fiidBizCode,
    contBizCode,
    paidDate,
    kind: 'manual',
    lines: [{ itemId: item.itemId, component: 'PRINCIPAL', amount: '500.00' }],
    submit: true,
  });
  return s.paidBizCode;
}

describe('voucher numbers under concurrent money approvals', () => {
  it('numbers every approved write-off, gap-free and unique per month, refusals and rollbacks among them', async () => {
    const conts = [await disbursedContract(), await disbursedContract(), await disbursedContract()];
    // March: 12 of 15 write-offs fit the incoming of 6,000.00; April: 8 of 15 fit 4,000.00.
    const march = await approvedIncome(maker, checker, f.bankBizCode, '6000.00', '2026-03-20');
    const april = await approvedIncome(maker, checker, f.bankBizCode, '4000.00', '2026-04-01');
    const codes: string[] = [];
    // One month per contract: a contract's write-offs are never dated before its latest one.
    for (let i = 0; i < 15; i++) {
      codes.push(await submitted(march, conts[i % 2]!, '2026-03-31'));
      codes.push(await submitted(april, conts[2]!, ON));
    }
    // Postings that write their voucher and then roll back, at the same time: they take no number.
    const rolledBack = Array.from({ length: 6 }, (_, i) =>
      db()
        .transaction(async (tx) => {
          await postEvent(
            tx,
            {
              kind: 'income',
              docCode: `ROLLBACK${i}`,
              date: i % 2 ? '2026-03-31' : ON,
              amount: '1.00',
              payer: '回滚',
            },
            SYSTEM_ACTOR,
          );
          throw new Error('rolled back');
        })
        .catch((e: Error) => e.message),
    );
    const [results, rollbacks] = await Promise.all([
      Promise.all(codes.map((c) => checker.call(paidApi.audit, {}, { query: { paidBizCode: c } }))),
      Promise.all(rolledBack),
    ]);
    expect(rollbacks).toEqual(Array(6).fill('rolled back'));
    const approved = codes.filter((_, i) => results[i]!.status === 200);
    expect(new Set(results.filter((r) => r.status !== 200).map((r) => r.msg))).toEqual(
      new Set(['来款可核销余额不足']),
    );
    expect(approved).toHaveLength(20);

    // Every approved write-off has exactly one voucher, numbered; no refused one has any.
    const { list } = voucherReader(() => maker);
    for (const code of codes) {
      const page = await list({ docType: 'paid', docCode: code });
      expect(page.total).toBe(approved.includes(code) ? 1 : 0);
      for (const v of page.list) expect(v.voucherNo).toMatch(/^记-\d{4}$/);
    }
    expect((await list({ docCode: 'ROLLBACK0' })).total).toBe(0);

    // Each month's numbers are 1 … n, each once, and the counter stands at n.
    const periods = await queryRows<{ period: string; nos: number[]; last: number; unnumbered: number }>(
      db(),
      sql`select v.period, array_agg(v.no order by v.no) as nos, max(p.last_no) as last,
                 count(*) filter (where v.no is null)::int as unnumbered
            from vouchers v join voucher_periods p on p.period = v.period
           group by v.period order by v.period`,
    );
    expect(periods.map((p) => p.period)).toEqual(['2026-01', '2026-03', '2026-04']);
    for (const p of periods) {
      expect(p.unnumbered).toBe(0);
      expect(p.nos).toEqual(Array.from({ length: p.nos.length }, (_, i) => i + 1));
      expect(p.last).toBe(p.nos.length);
    }
    const [paids] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from vouchers where doc_type = 'paid' and period in ('2026-03', '2026-04')`,
    );
    expect(paids!.n).toBe(20);

    // The accounts' period totals (what the trial balance reads) are the lines summed.
    const diff = await queryRows(
      db(),
      sql`with lines as (
            select v.period, l.account_code, l.account_name, sum(l.debit) as debit, sum(l.credit) as credit,
                   count(*)::int as lines
              from voucher_lines l join vouchers v on v.id = l.voucher_id
             group by 1, 2, 3)
          (select * from lines except select * from voucher_account_periods)
          union all
          (select * from voucher_account_periods except select * from lines)`,
    );
    expect(diff).toEqual([]);
  }, 300_000);
});
