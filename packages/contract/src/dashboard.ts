import { z } from 'zod';
import { int } from './fields';

/**
 * The staff's start page (工作): portfolio figures over the contracts the user may see (data
 * scope), each widget one call answered by one SQL round trip. Definitions, as of the business
 * date D (营业日), over live plan items of 履约中 contracts:
 * - outstanding principal: Σ (principal − principal paid);
 * - interest receivable (应收利息): interest earned through D and not received, on the books; 未到期
 *   利息 the open interest not earned yet; 表外利息 the open interest of items more than 90 days past
 *   due (docs/accounting.md "Interest on the books", the ledger's figures);
 * - fee receivable: Σ (fee − paid), every period;
 * - due in the next N days: Σ open principal + interest + fee of items due D … D + N (an item due
 *   on D itself is due, not overdue);
 * - overdue: items whose status as of D is 逾期, with their open principal + interest + fee and,
 *   apart, the penalty due on D less the penalty paid; aging by days past the due date (1–30,
 *   31–60, 61–90, >90). Status, days and penalty are the plan view's and the write-off screen's:
 *   one function computes them (docs/money-rules.md "Figures as of a date");
 * - trend: per month, the financing of the approved contracts that started in it.
 * The totals read each contract's open balances, which the database keeps equal to the sums over
 * its items (migrations/0013_contract_figures.sql); windows and overdue read only open items.
 */
export const DASHBOARD_PATHS = {
  portfolio: '/ft/api/dashboard/portfolio',
  aging: '/ft/api/dashboard/aging',
  trend: '/ft/api/dashboard/trend',
} as const;
// Credit utilisation bars come from the credit module's CREDIT_PATHS.utilisation.

export interface PortfolioFigures {
  asOf: string;
  contractCount: number;
  outstandingPrincipal: string;
  interestReceivable: string;
  interestNotDue: string;
  interestOffBalance: string;
  feeReceivable: string;
  due7: string;
  due7Count: number;
  due30: string;
  due30Count: number;
  overdueAmount: string;
  /** Σ over the overdue items of the penalty due on D less the penalty paid (not in overdueAmount). */
  overduePenalty: string;
  overdueCount: number;
  overdueContracts: number;
}

export const AGING_BUCKETS = ['1-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_LABELS: Record<AgingBucket, string> = {
  '1-30': '1–30天',
  '31-60': '31–60天',
  '61-90': '61–90天',
  '90+': '90天以上',
};

export interface AgingRow {
  bucket: AgingBucket;
  amount: string;
  count: number;
}

export const trendQuery = z.object({ months: z.preprocess((v) => v ?? 12, int('月数', 1, 36)) });

export interface TrendPoint {
  /** YYYY-MM */
  month: string;
  /** Σ approved incoming payments with a value date in that month. */
  incoming: string;
  /** Σ approved write-offs dated that month, reversed ones and 核销坏账 (no money moved) left out. */
  writtenOff: string;
  /** Σ principal disbursed that month by the 放款单 in force (value date; a reversed one never counts). */
  financed: string;
  /** How many 放款单 in force have a value date in that month. */
  contracts: number;
}
