import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ASSET_CLASSES, type AssetClass } from '@portal/contract/classification';
import { OVERDUE_BUCKETS, overdueBucketOf, type LedgerRow } from '@portal/contract/ledger';
import { PRODUCTS, RECOURSES } from '@portal/contract/credit';
import type { Exposure, RegulatorReport, regulatorSchema } from '@portal/contract/regulator';
import { addDays } from '@portal/contract/plan/dates';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Db } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { ledgerBatches } from '../ledger';

/**
 * 监管报表 (docs/ledger.md "The regulator's figures"): every figure is summed from the ledger's rows
 * of the month's last business date, so the report and the ledger of that date cannot differ.
 */

/** The report is the office's, whoever reads it: the ledger of every contract. */
const OFFICE: ScopeUser = { dataScope: 'all', deptId: 0, userId: 0 };

/**
 * Who a contract's risk is on, for the concentration: the ledger's 买方（债务人）, by name, while
 * debtors are free text. When debtors become customers, this is the one place to key them by code.
 */
export function debtorKey(r: LedgerRow): string {
  return r.debtorName.trim() || '（未填写债务人）';
}

/** The month's last business date: its last day, or the business date inside the current month. */
export function reportDate(month: string, today: string): string {
  if (month > today.slice(0, 7)) throw badInput('报表月份不能晚于当前业务日期所在月份');
  const last = addDays(`${addDays(`${month}-28`, 5).slice(0, 7)}-01`, -1);
  return last < today ? last : today;
}

const zero = (): { contracts: number; principal: Decimal; interest: Decimal; fee: Decimal } => ({
  contracts: 0,
  principal: new Decimal(0),
  interest: new Decimal(0),
  fee: new Decimal(0),
});
type Acc = ReturnType<typeof zero>;
const add = (a: Acc, r: LedgerRow) => {
  a.contracts++;
  a.principal = a.principal.plus(r.principalOutstanding);
  a.interest = a.interest.plus(r.interestOutstanding);
  a.fee = a.fee.plus(r.feeOutstanding);
};
const out = (a: Acc): Exposure => ({
  contracts: a.contracts,
  principal: a.principal.toFixed(2),
  interest: a.interest.toFixed(2),
  fee: a.fee.toFixed(2),
});
/** A share of the total principal in per cent, two decimals, half-up. */
const shareOf = (part: Decimal, total: Decimal) =>
  total.isZero() ? '0.00' : part.times(100).div(total).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

export async function regulatorReport(
  db: Db,
  q: z.output<typeof regulatorSchema>,
  today: string,
): Promise<RegulatorReport> {
  const asOf = reportDate(q.month, today);
  const dateFrom = `${q.month}-01`;
  const walk = await ledgerBatches(db, OFFICE, { asOf, dateFrom }, today);
  const totals = zero();
  const byProduct = new Map<string, Acc>();
  const newBiz = { contracts: 0, financing: new Decimal(0), loanNet: new Decimal(0) };
  const overdue = new Map<string, { contracts: number; principal: Decimal; amount: Decimal }>();
  const classes = new Map<string, { contracts: number; principal: Decimal }>();
  const debtors = new Map<string, { contracts: number; principal: Decimal }>();
  const related = zero();
  const relatedCustomers = new Set<string>();
  let after: number | null = null;
  do {
    const { rows, lastId }: Awaited<ReturnType<typeof walk.next>> = await walk.next(after);
    after = lastId;
    if (rows.length === 0) break;
    // Recourse and the related-party mark are not ledger columns: read for this batch's rows.
    const extra = await queryRows<{ code: string; recourse: string; related: boolean }>(
      db,
      sql`select c.biz_code as code, c.recourse, coalesce(co.related_party, false) as related
            from contracts c left join companies co on co.comp_code = c.cust_code and co.deleted_at is null
           where c.biz_code = any(string_to_array(${rows.map((r) => r.contBizCode).join(',')}, ','))`,
    );
    const of = new Map(extra.map((e) => [e.code.trim(), e]));
    for (const r of rows) {
      if (r.loanDate !== null && r.loanDate >= dateFrom && r.loanDate <= asOf) {
        newBiz.contracts++;
        newBiz.financing = newBiz.financing.plus(r.financingAmount);
        newBiz.loanNet = newBiz.loanNet.plus(r.loanNetAmount ?? 0);
      }
      if (r.ledgerState !== 'active') continue;
      const x = of.get(r.contBizCode);
      add(totals, r);
      const pk = `${r.product}|${x?.recourse ?? 'with'}`;
      add(byProduct.get(pk) ?? byProduct.set(pk, zero()).get(pk)!, r);
      const b = overdueBucketOf(r.overdueDays);
      const o = overdue.get(b) ?? { contracts: 0, principal: new Decimal(0), amount: new Decimal(0) };
      overdue.set(b, {
        contracts: o.contracts + 1,
        principal: o.principal.plus(r.principalOutstanding),
        amount: o.amount.plus(r.overdueAmount),
      });
      const ck = r.classification ?? 'none';
      const c = classes.get(ck) ?? { contracts: 0, principal: new Decimal(0) };
      classes.set(ck, { contracts: c.contracts + 1, principal: c.principal.plus(r.principalOutstanding) });
      const dk = debtorKey(r);
      const d = debtors.get(dk) ?? { contracts: 0, principal: new Decimal(0) };
      debtors.set(dk, { contracts: d.contracts + 1, principal: d.principal.plus(r.principalOutstanding) });
      if (x?.related) {
        add(related, r);
        relatedCustomers.add(r.custCode);
      }
    }
  } while (after !== null);
  const top = [...debtors]
    .sort(([ka, a], [kb, b]) => b.principal.comparedTo(a.principal) || (ka < kb ? -1 : 1))
    .slice(0, 10);
  const topSum = top.reduce((s, [, d]) => s.plus(d.principal), new Decimal(0));
  return {
    month: q.month,
    asOf,
    totals: out(totals),
    byProduct: PRODUCTS.flatMap((product) =>
      RECOURSES.flatMap((recourse) => {
        const a = byProduct.get(`${product}|${recourse}`);
        return a ? [{ product, recourse, ...out(a) }] : [];
      }),
    ),
    newBusiness: {
      contracts: newBiz.contracts,
      financing: newBiz.financing.toFixed(2),
      loanNet: newBiz.loanNet.toFixed(2),
    },
    overdue: OVERDUE_BUCKETS.map((bucket) => {
      const o = overdue.get(bucket);
      return {
        bucket,
        contracts: o?.contracts ?? 0,
        principal: (o?.principal ?? new Decimal(0)).toFixed(2),
        overdueAmount: (o?.amount ?? new Decimal(0)).toFixed(2),
      };
    }),
    classes: [...ASSET_CLASSES, null].map((assetClass: AssetClass | null) => {
      const c = classes.get(assetClass ?? 'none');
      return {
        assetClass,
        contracts: c?.contracts ?? 0,
        principal: (c?.principal ?? new Decimal(0)).toFixed(2),
      };
    }),
    topDebtors: top.map(([debtor, d], i) => ({
      rank: i + 1,
      debtor,
      contracts: d.contracts,
      principal: d.principal.toFixed(2),
      share: shareOf(d.principal, totals.principal),
    })),
    topDebtorsShare: shareOf(topSum, totals.principal),
    relatedParty: {
      ...out(related),
      customers: relatedCustomers.size,
      share: shareOf(related.principal, totals.principal),
    },
  };
}
