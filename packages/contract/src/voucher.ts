import { z } from 'zod';
import type { Page } from './api';
import { listSchema } from './list';
import { int, optionalOneOf, optionalText, text } from './fields';

/**
 * 会计凭证 (accounting vouchers): every approved money event posts a balanced journal through the
 * account mapping (科目映射); the trial balance (试算平衡) sums them per period (docs/accounting.md).
 */
export const VOUCHER_PATHS = {
  /** The account mapping: one row per role. */
  accountList: '/ft/api/voucher/account/list',
  /** body accountSaveSchema: a role's account code and name. */
  accountSave: '/ft/api/voucher/account/save',
  /** body voucherListSchema: vouchers by period, source document type and code. */
  list: '/ft/api/voucher/list',
  /** query voucherQuery: one voucher with its lines. */
  view: '/ft/api/voucher/view',
  /** body voucherExportSchema: the vouchers' lines as CSV or xlsx. */
  export: '/ft/api/voucher/export',
  /** body trialSchema: the trial balance of a period. */
  trial: '/ft/api/voucher/trial',
  /** body trialSchema: the trial balance of a period as xlsx (button ft-voucher-trial:export). */
  trialExport: '/ft/api/voucher/trial/export',
} as const;

/** 月结 (docs/accounting.md "Month close"): closing and reopening a month, each asked and then approved. */
export const CLOSE_PATHS = {
  /** body closeListSchema: the months with vouchers or a close record, newest first. */
  list: '/ft/api/voucher/close/list',
  /** body closeAskSchema: finance asks to close (or reopen, with a reason) a month. */
  ask: '/ft/api/voucher/close/ask',
  /** body closeDecideSchema: a checker (not the asker) approves — the close runs — or rejects. */
  approve: '/ft/api/voucher/close/approve',
  reject: '/ft/api/voucher/close/reject',
} as const;
export const CLOSE_MENU = 'ft-voucher-close';

export const VOUCHER_MENUS = {
  accounts: 'ft-voucher-account',
  vouchers: 'ft-voucher',
  trial: 'ft-voucher-trial',
} as const;

export const VOUCHER_FILE_NAME = '会计凭证';
export const TRIAL_FILE_NAME = '试算平衡';

/** What an account is used for in the journals; the mapping gives each its code and name. */
export const ACCOUNT_ROLES = [
  'bank',
  'factoring',
  'interestReceivable',
  'advance',
  'deferredInterest',
  'margin',
  'interestIncome',
  'feeIncome',
  'penaltyIncome',
  'buyback',
  'openingClearing',
  'creditLoss',
  'badDebtReserve',
] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
export const ACCOUNT_ROLE_LABELS: Record<AccountRole, string> = {
  bank: '银行存款（收付款）',
  factoring: '保理融资本金',
  interestReceivable: '月末计提的应收利息',
  advance: '来款待核销',
  deferredInterest: '预收利息（前置利息，按月摊入利息收入）',
  margin: '收取的保证金',
  interestIncome: '利息收入',
  feeIncome: '手续费收入',
  penaltyIncome: '罚息收入',
  buyback: '回购应收款（有追索合同由卖方回购的应收）',
  openingClearing: '期初余额过渡（期初导入的对方科目）',
  creditLoss: '信用减值损失（计提减值准备）',
  badDebtReserve: '坏账准备（按五级分类计提）',
};
/** The seeded mapping: codes after the Chinese enterprise chart of accounts (docs/accounting.md). */
export const ACCOUNT_DEFAULTS: Record<AccountRole, { code: string; name: string }> = {
  bank: { code: '1002', name: '银行存款' },
  factoring: { code: '1135', name: '应收保理款' },
  interestReceivable: { code: '1132', name: '应收利息' },
  advance: { code: '2203', name: '预收款项' },
  deferredInterest: { code: '2401', name: '递延收益' },
  margin: { code: '2241', name: '保证金' },
  interestIncome: { code: '6011', name: '利息收入' },
  feeIncome: { code: '6021', name: '手续费收入' },
  penaltyIncome: { code: '6051', name: '罚息收入' },
  buyback: { code: '1221', name: '其他应收款-回购款' },
  openingClearing: { code: '3999', name: '期初余额过渡' },
  creditLoss: { code: '6702', name: '信用减值损失' },
  badDebtReserve: { code: '1231', name: '坏账准备' },
};

/** The source documents of a voucher. */
export const VOUCHER_DOC_TYPES = [
  'loan',
  'loanRed',
  'prepayment',
  'income',
  'paid',
  'paidRed',
  'accrual',
  'deferral',
  'buyback',
  'buybackRed',
  'buybackSettle',
  'opening',
  'provision',
  'badDebt',
  'badDebtRed',
] as const;
export type VoucherDocType = (typeof VOUCHER_DOC_TYPES)[number];
export const VOUCHER_DOC_LABELS: Record<VoucherDocType, string> = {
  loan: '放款单',
  loanRed: '放款单冲红',
  prepayment: '前期款',
  income: '来款',
  paid: '来款核销',
  paidRed: '核销冲红',
  accrual: '月末计提',
  deferral: '预收利息摊销',
  buyback: '回购单',
  buybackRed: '回购冲红',
  buybackSettle: '回购款核销',
  opening: '期初导入',
  provision: '计提减值准备',
  badDebt: '核销坏账',
  badDebtRed: '核销坏账冲红',
};

export interface AccountRow {
  role: AccountRole;
  roleLabel: string;
  code: string;
  name: string;
  version: number;
  updatedAt: string | null;
}

const accountCode = (label: string) =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .regex(/^\d{4,12}$/, `${label}应为4至12位数字`);

export const accountSaveSchema = z.object({
  role: z.enum(ACCOUNT_ROLES, { error: '科目用途取值不正确' }),
  code: accountCode('科目编码'),
  name: text('科目名称', 40),
  version: int('版本号', 0, 2_147_483_647),
});
export type AccountSave = z.input<typeof accountSaveSchema>;

/** A period is a calendar month, YYYY-MM. */
export const PERIOD_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
const period = (label: string) =>
  z.string({ error: `请选择${label}` }).regex(PERIOD_PATTERN, `${label}格式应为YYYY-MM`);
const optionalPeriod = (label: string) =>
  z.preprocess((v) => (v === null || v === '' ? undefined : v), period(label).optional());

const voucherFilters = {
  period: optionalPeriod('会计期间'),
  docType: optionalOneOf('来源单据类型', VOUCHER_DOC_TYPES),
  docCode: optionalText('来源单据编号', 40),
};
export const VOUCHER_SORTABLE = ['voucherNo', 'voucherDate'] as const;
export const voucherListSchema = listSchema(voucherFilters, VOUCHER_SORTABLE);
export type VoucherListInput = z.input<typeof voucherListSchema>;

export const voucherExportSchema = z.object({
  ...voucherFilters,
  format: z.enum(['csv', 'xlsx'], { error: '导出格式取值不正确' }),
});
export type VoucherExportInput = z.input<typeof voucherExportSchema>;

export const voucherQuery = z.object({
  voucherId: z.coerce
    .number({ error: '凭证编号取值不正确' })
    .int('凭证编号取值不正确')
    .min(1, '凭证编号取值不正确')
    .max(2_147_483_647, '凭证编号取值不正确'),
});

export const CLOSE_ACTIONS = ['close', 'reopen'] as const;
export type CloseAction = (typeof CLOSE_ACTIONS)[number];
export const CLOSE_ACTION_LABELS: Record<CloseAction, string> = { close: '结账', reopen: '反结账' };
export const CLOSE_STATES = ['pending', 'approved', 'rejected'] as const;
export type CloseState = (typeof CLOSE_STATES)[number];
export const CLOSE_STATE_LABELS: Record<CloseState, string> = {
  pending: '待复核',
  approved: '已执行',
  rejected: '已驳回',
};

export const closeListSchema = listSchema({}, ['period']);
export const closeAskSchema = z
  .object({
    period: period('会计期间'),
    action: z.enum(CLOSE_ACTIONS, { error: '操作取值不正确' }),
    reason: optionalText('原因', 200),
  })
  .refine((v) => v.action !== 'reopen' || (v.reason ?? '') !== '', {
    path: ['reason'],
    message: '反结账须填写原因',
  });
export type CloseAskInput = z.input<typeof closeAskSchema>;
export const closeDecideSchema = z.object({
  requestId: int('申请编号', 1, 2_147_483_647),
  comment: optionalText('复核意见', 200),
});
export type CloseDecideInput = z.input<typeof closeDecideSchema>;

/** A month of the books: whether it is closed, and its open request, if any. */
export interface CloseMonth {
  period: string;
  closed: boolean;
  closedAt: string | null;
  closedByName: string | null;
  /** The request waiting for a checker, if any. */
  request: CloseRequest | null;
  /** The latest decided request (what was done last, or refused). */
  last: CloseRequest | null;
}

export interface CloseRequest {
  requestId: number;
  period: string;
  action: CloseAction;
  reason: string | null;
  state: CloseState;
  askedByName: string | null;
  askedAt: string;
  decidedByName: string | null;
  decidedAt: string | null;
  comment: string | null;
}

export type CloseMonthPage = Page<CloseMonth>;

export const trialSchema = z.object({ period: period('会计期间') });
export type TrialInput = z.input<typeof trialSchema>;

export interface VoucherRow {
  voucherId: number;
  period: string;
  /** 凭证字号: 记-0001, numbered per period. */
  voucherNo: string;
  voucherDate: string;
  summary: string;
  docType: VoucherDocType;
  docCode: string;
  /** The voucher this one mirrors (a red reversal), by its 凭证字号. */
  redOfNo: string | null;
  /** Σ debit (= Σ credit). */
  amount: string;
  createdAt: string;
}

export interface VoucherLine {
  lineNo: number;
  summary: string;
  accountCode: string;
  accountName: string;
  debit: string;
  credit: string;
  /** 辅助核算: customer and contract, as accounting packages import it. */
  aux: string;
}

export interface VoucherView extends VoucherRow {
  lines: VoucherLine[];
}

export interface TrialRow {
  accountCode: string;
  accountName: string;
  openingDebit: string;
  openingCredit: string;
  debit: string;
  credit: string;
  closingDebit: string;
  closingCredit: string;
}

export interface TrialBalance {
  period: string;
  rows: TrialRow[];
  totals: Omit<TrialRow, 'accountCode' | 'accountName'>;
  /** Σ debit = Σ credit for the opening, the movement and the closing. */
  balanced: boolean;
}

export type VoucherPage = Page<VoucherRow>;
