import { ASSET_CLASSES, type AssetClass } from './classification';
import { z } from 'zod';
import type { Page } from './api';
import { listSchema } from './list';
import { PRODUCTS } from './credit';
import { date, optionalCode, optionalDate, optionalOneOf, optionalText } from './fields';

/**
 * 保理业务台账 (portfolio ledger) and 客户对账单 (customer statement): what finance staff take out
 * of the system, computed from the posted figures as of a business date (docs/ledger.md).
 */
export const LEDGER_PATHS = {
  /** body ledgerListSchema: one row per contract as of `asOf`, with the totals of every match. */
  list: '/ft/api/ledger/portfolio/list',
  /** body ledgerExportSchema: the same rows and totals as a streamed xlsx. */
  export: '/ft/api/ledger/portfolio/export',
  /** body statementSchema: opening balance, movements, closing balance. */
  statement: '/ft/api/ledger/statement/view',
  /** body statementSchema: the statement as xlsx. */
  statementExport: '/ft/api/ledger/statement/export',
} as const;

export const LEDGER_MENUS = {
  portfolio: 'ft-ledger-portfolio',
  statement: 'ft-ledger-statement',
} as const;

export const LEDGER_FILE_NAME = '保理业务台账.xlsx';
export const STATEMENT_FILE_NAME = '客户对账单.xlsx';

/** A contract's state as of the ledger's date. */
export const LEDGER_STATES = ['unloaned', 'active', 'settled', 'writtenOff'] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];
export const LEDGER_STATE_LABELS: Record<LedgerState, string> = {
  unloaned: '未放款',
  active: '履约中',
  settled: '已结清',
  // Closed by a 核销坏账 dated by the ledger's date (docs/ledger.md).
  writtenOff: '已核销',
};

/** Overdue buckets by the contract's longest overdue days (0: not overdue). */
export const OVERDUE_BUCKETS = ['0', '1-30', '31-60', '61-90', '90+'] as const;
export type OverdueBucket = (typeof OVERDUE_BUCKETS)[number];
export const OVERDUE_BUCKET_LABELS: Record<OverdueBucket, string> = {
  '0': '未逾期',
  '1-30': '逾期1–30天',
  '31-60': '逾期31–60天',
  '61-90': '逾期61–90天',
  '90+': '逾期90天以上',
};

export function overdueBucketOf(days: number): OverdueBucket {
  return days <= 0 ? '0' : days <= 30 ? '1-30' : days <= 60 ? '31-60' : days <= 90 ? '61-90' : '90+';
}

const ledgerFilters = {
  /** The as-of date; the business date when absent. */
  asOf: optionalDate('台账日期'),
  /** First day of the period of the movement columns; the first of asOf's month when absent. */
  dateFrom: optionalDate('期间开始日期'),
  /** Organisation (and its sub-organisations), by its code. */
  orgCode: optionalCode('所属机构'),
  custCode: optionalCode('客户'),
  custName: optionalText('客户名称', 100),
  product: optionalOneOf('产品', PRODUCTS),
  ledgerState: optionalOneOf('台账状态', LEDGER_STATES),
  overdueBucket: optionalOneOf('逾期区间', OVERDUE_BUCKETS),
  /** 五级分类 in force on asOf (履约中 rows only, docs/classification.md). */
  assetClass: optionalOneOf('五级分类', ASSET_CLASSES),
  loanDateStart: optionalDate('放款日开始'),
  loanDateEnd: optionalDate('放款日结束'),
};

export const LEDGER_SORTABLE = ['contractNo', 'loanDate', 'principalOutstanding', 'overdueDays'] as const;
export const ledgerListSchema = listSchema(ledgerFilters, LEDGER_SORTABLE);
export type LedgerListInput = z.input<typeof ledgerListSchema>;
export type LedgerListQuery = z.output<typeof ledgerListSchema>;

export const ledgerExportSchema = z.object(ledgerFilters);
export type LedgerExportQuery = z.output<typeof ledgerExportSchema>;

export interface LedgerRow {
  contBizCode: string;
  contractNo: string;
  custCode: string;
  custName: string;
  /** The core enterprise, else the debtors named on the receivables. */
  debtorName: string;
  product: (typeof PRODUCTS)[number];
  receivablesAmount: string;
  financingAmount: string;
  loanDate: string | null;
  loanNetAmount: string | null;
  startDate: string;
  maturityDate: string;
  annualRate: string;
  ruleName: string;
  method: string;
  principalOutstanding: string;
  /** 坏账准备 held on asOf: the provisioning runs posted to it by then (docs/accounting.md "Provisioning"). */
  provision: string;
  /** 应收利息: interest earned by the end of asOf and not received, on the books (docs/accounting.md). */
  interestOutstanding: string;
  /** 未到期利息: the open interest not earned yet (later days of the plan). */
  interestNotDue: string;
  /** 表外利息: open interest of items more than 90 days past due, taken off the books. */
  interestOffBalance: string;
  feeOutstanding: string;
  overdueDays: number;
  /** Open principal + interest + fee of the items overdue on asOf. */
  overdueAmount: string;
  /** Penalty due on asOf less the penalty paid, of those items. */
  overduePenalty: string;
  nextDueDate: string | null;
  nextDueAmount: string | null;
  /** Written off in the period (reversed ones included: their reversal is its own column). */
  periodReceived: string;
  /** Write-offs reversed in the period. */
  periodReversed: string;
  lineCode: string;
  deptName: string | null;
  ledgerState: LedgerState;
  /**
   * 五级分类 in force on asOf for a 履约中 row (docs/classification.md); null for the others and for
   * a contract no day-end has classified yet (未分类).
   */
  classification: AssetClass | null;
}

export interface LedgerTotals {
  contracts: number;
  receivablesAmount: string;
  financingAmount: string;
  loanNetAmount: string;
  principalOutstanding: string;
  interestOutstanding: string;
  interestNotDue: string;
  interestOffBalance: string;
  feeOutstanding: string;
  overdueAmount: string;
  overduePenalty: string;
  overdueContracts: number;
  periodReceived: string;
  periodReversed: string;
}

export interface LedgerPage extends Page<LedgerRow> {
  asOf: string;
  dateFrom: string;
  totals: LedgerTotals;
}

// ---- 客户对账单

export const statementSchema = z
  .object({
    custCode: optionalCode('客户'),
    contBizCode: optionalCode('合同'),
    dateFrom: date('开始日期'),
    dateTo: date('结束日期'),
  })
  .refine((v) => v.custCode !== undefined || v.contBizCode !== undefined, {
    message: '请选择客户或合同',
    path: ['custCode'],
  })
  .refine((v) => v.dateFrom <= v.dateTo, { message: '开始日期不能晚于结束日期', path: ['dateFrom'] });
export type StatementInput = z.input<typeof statementSchema>;
export type StatementQuery = z.output<typeof statementSchema>;

export const STATEMENT_KINDS = ['loan', 'receipt', 'reversal', 'badDebt', 'badDebtRed'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];
export const STATEMENT_KIND_LABELS: Record<StatementKind, string> = {
  loan: '放款',
  receipt: '回款核销',
  reversal: '核销冲红',
  badDebt: '核销坏账',
  badDebtRed: '核销坏账冲红',
};

/** One movement. Amounts signed as they move the balance's components (a reversal is negative). */
export interface StatementLine {
  date: string;
  kind: StatementKind;
  docCode: string;
  contBizCode: string;
  contractNo: string;
  /** Principal lent (loan) — the only movement that raises the balance. */
  disbursed: string;
  /** Net paid out to the customer (loan only). */
  netPaid: string;
  /** Deducted from the disbursement (up-front items). */
  deducted: string;
  /**
   * Total received (receipt positive, reversal negative). A 核销坏账 (and its 冲红) receives
   * nothing: it moves the principal balance only (docs/ledger.md "The statement").
   */
  received: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  /** Principal balance after this movement. */
  balance: string;
  remark: string;
}

export interface Statement {
  custCode: string;
  custName: string;
  /** Set when the statement is of one contract. */
  contBizCode: string | null;
  contractNo: string | null;
  dateFrom: string;
  dateTo: string;
  /** Principal outstanding at the end of dateFrom − 1. */
  opening: string;
  lines: StatementLine[];
  totals: {
    disbursed: string;
    netPaid: string;
    deducted: string;
    received: string;
    principal: string;
    interest: string;
    fee: string;
    penalty: string;
  };
  /** Principal outstanding at the end of dateTo. */
  closing: string;
  /** closing in Chinese capitals (大写金额). */
  closingCapitals: string;
}
