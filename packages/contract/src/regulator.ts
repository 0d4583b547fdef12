import { z } from 'zod';
import type { AssetClass } from './classification';
import type { OverdueBucket } from './ledger';
import type { PRODUCTS, RECOURSES } from './credit';
import { PERIOD_PATTERN } from './voucher';

/**
 * 监管报表: the monthly figures a 商业保理 company reports to its local financial regulator, read
 * from the ledger of the month's last business date (docs/ledger.md "The regulator's figures").
 */
export const REGULATOR_PATHS = {
  /** body regulatorSchema: the month's figures. */
  report: '/ft/api/regulator/report',
  /** body regulatorSchema: the same figures as xlsx (button ft-regulator:export). */
  export: '/ft/api/regulator/export',
} as const;

export const REGULATOR_MENU = 'ft-regulator';
export const REGULATOR_FILE_NAME = '监管报表';

export const regulatorSchema = z.object({
  month: z.string({ error: '请选择报表月份' }).regex(PERIOD_PATTERN, '报表月份格式应为YYYY-MM'),
});
export type RegulatorInput = z.input<typeof regulatorSchema>;

/** The balances of a group of contracts on the report date. */
export interface Exposure {
  contracts: number;
  principal: string;
  interest: string;
  fee: string;
}

export interface RegulatorReport {
  month: string;
  /** The month's last business date: its last day, or the business date within the current month. */
  asOf: string;
  /** Every contract in force (履约中) on asOf. */
  totals: Exposure;
  byProduct: (Exposure & { product: (typeof PRODUCTS)[number]; recourse: (typeof RECOURSES)[number] })[];
  /** Contracts disbursed in the month (放款日 from the first to asOf). */
  newBusiness: { contracts: number; financing: string; loanNet: string };
  overdue: { bucket: OverdueBucket; contracts: number; principal: string; overdueAmount: string }[];
  classes: { assetClass: AssetClass | null; contracts: number; principal: string }[];
  /** The ten debtors with the largest principal outstanding, and their share of the total. */
  topDebtors: { rank: number; debtor: string; contracts: number; principal: string; share: string }[];
  topDebtorsShare: string;
  /** Contracts of customers marked 关联方 (related parties). */
  relatedParty: Exposure & { customers: number; share: string };
}
