import { z } from 'zod';
import {
  bool,
  code,
  date,
  int,
  money,
  moneyRange,
  oneOf,
  optionalCode,
  optionalDate,
  optionalOneOf,
  optionalSerialNo,
  optionalText,
  serialNo,
  text,
  version,
} from './fields';
import { listSchema } from './list';
import { DOC_STATES, submitFlag, type DocState } from './workflow';
import { COMPONENTS, COMPONENT_LABELS, type Component } from './plan/rule';
import type { ItemStatus } from './plan/accrual';

/**
 * Paths without the /api prefix (docs/protocol.md "Paths and methods"): incoming payments (来款), write-offs
 * against plans (来款核销), paid-red entries (来款核销冲红) and the reconciliation (对账); docs/money-rules.md. Every
 * amount is a 2-decimal string.
 */
const INCOME = '/ft/api/accounts/income';
export const INCOME_PATHS = {
  list: `${INCOME}/list`,
  /** The list's filters and sort as a streamed xlsx (every matching row). */
  listExport: `${INCOME}/listExport`,
  saveBaseInfo: `${INCOME}/saveBaseInfo`,
  /** ?fiidBizCode */
  viewBaseInfo: `${INCOME}/viewBaseInfo`,
  /** ?fiidBizCode */
  deleteInfo: `${INCOME}/deleteInfo`,
  /** ?fiidBizCode, body auditBody */
  audit: `${INCOME}/audit`,
  unAudit: `${INCOME}/unAudit`,
  /** Approved incomings with an unallocated balance (the write-off editor's picker). */
  initList: `${INCOME}/initList`,
  /** multipart xlsx (a bank statement) -> IncomeImportPreview; nothing is saved. */
  resolveIncomeExcel: `${INCOME}/resovleIncomeExcel`,
  /** The previewed rows, saved in one transaction (all or none). */
  importSave: `${INCOME}/incomingImportSave`,
} as const;

const PAID = '/ft/api/accounts/paid';
export const PAID_PATHS = {
  list: `${PAID}/list`,
  /** The list's filters and sort as a streamed xlsx (every matching row). */
  listExport: `${PAID}/listExport`,
  /** ?paidBizCode */
  viewBaseInfo: `${PAID}/viewBaseInfo`,
  savePlanPaidInfo: `${PAID}/savePlanPaidInfo`,
  /** ?paidBizCode */
  deleteInfo: `${PAID}/deleteInfo`,
  audit: `${PAID}/audit`,
  unAudit: `${PAID}/unAudit`,
  /** Approved incomings with a balance (as income/initList, for the write-off screen). */
  initList: `${PAID}/initList`,
  /** ?contBizCode&paidDate: the contract's open plan items as of the date. */
  getValidPlanPaid: `${PAID}/getValidPlanPaid`,
  /** ?fiidBizCode: a new write-off of that incoming (its balance, the contracts it may serve). */
  initPaidBase: `${PAID}/initPaidBase`,
  /** body paidSuggestSchema: the allocation the rule's order gives. */
  getPaiPlanInfo: `${PAID}/getPaiPlanInfo`,
  /** ?fiidBizCode: a new special write-off (early settlement or manual). */
  initSpecialPaidBase: `${PAID}/initSpecialPaidBase`,
  /** body paidSuggestSchema with mode: the early-settlement quote as allocation lines. */
  getSpecialPlanInfo: `${PAID}/getSpecialPlanInfo`,
  /** ?paidBizCode, body { reason }: creates the paid-red entry (submitted for approval). */
  rushRed: `${PAID}/rushRed`,
} as const;

const RED = `${PAID}/red`;
export const PAID_RED_PATHS = {
  list: `${RED}/list`,
  /** ?paidRedBizCode: the entry with the write-off it reverses. */
  initList: `${RED}/initList`,
  deleteInfo: `${RED}/deleteInfo`,
  audit: `${RED}/audit`,
  unAudit: `${RED}/unAudit`,
} as const;

export const RECONCILE_PATHS = {
  /** body reconcileSchema: received = allocated + unallocated, paid = Σ lines − Σ red lines. */
  reconcile: '/ft/api/accounts/reconcile',
} as const;

// ---------------------------------------------------------------------------------------------
// Incoming payments (来款)

export const INCOME_SOURCES = ['manual', 'import'] as const;
export type IncomeSource = (typeof INCOME_SOURCES)[number];
export const INCOME_SOURCE_LABELS: Record<IncomeSource, string> = { manual: '手工录入', import: '流水导入' };

/** One incoming as typed or imported. */
export const incomeItemSchema = z.object({
  /** Our receiving account (a bank account of 本公司). */
  bankBizCode: code('收款账户'),
  payerName: text('付款人名称', 100),
  payerAccount: optionalText('付款人账号', 40, { nfkc: true }),
  payerBank: optionalText('付款人开户行', 100),
  amount: money('来款金额', { min: 'positive' }),
  valueDate: date('来款日期'),
  serialNo: serialNo('银行流水号'),
  remark: optionalText('备注', 500, { multiline: true }),
});
export type IncomeItem = z.output<typeof incomeItemSchema>;

export const incomeSaveSchema = incomeItemSchema.extend({
  fiidBizCode: optionalCode('来款编号'),
  version: version.optional(),
  ...submitFlag,
});

export const INCOME_EXPORT_FILE_NAME = '来款明细.xlsx';

export const incomeListSchema = listSchema(
  {
    fiidBizCode: optionalCode('来款编号'),
    payerName: optionalText('付款人名称', 100),
    serialNo: optionalSerialNo('银行流水号'),
    state: optionalOneOf('审核状态', DOC_STATES),
    valueDateFrom: optionalDate('来款日期起'),
    valueDateTo: optionalDate('来款日期止'),
    ...moneyRange('amount', '来款金额'),
    /** Only incomings with an unallocated balance. */
    withBalance: bool('有余额').optional(),
  },
  ['valueDate', 'amount', 'balance', 'updatedAt'],
);

export const fiidQuery = z.object({ fiidBizCode: code('来款编号') });

export interface IncomeRow {
  fiidBizCode: string;
  bankBizCode: string;
  bankAccountName: string | null;
  bankAccountNo: string | null;
  payerName: string;
  payerAccount: string | null;
  payerBank: string | null;
  amount: string;
  /** Written off by approved write-offs (net of reversals). */
  allocated: string;
  /** amount − allocated. */
  balance: string;
  valueDate: string;
  serialNo: string;
  source: IncomeSource;
  state: DocState;
  remark: string | null;
  updatedAt: string;
}

export interface IncomeView extends IncomeRow {
  version: number;
  /** Approved write-offs of this incoming (reversed ones included, marked). */
  paids: { paidBizCode: string; contBizCode: string; contractNo: string; amount: string; red: boolean }[];
}

export const incomeImportSaveSchema = z.object({
  rows: z
    .array(incomeItemSchema, { error: '导入数据格式不正确' })
    .min(1, '没有可保存的来款')
    .max(2000, '一次最多导入2000条来款'),
  ...submitFlag,
});

export interface IncomeImportRow {
  row: number;
  item: Partial<Record<keyof IncomeItem | 'accountNo', string>>;
  errors: string[];
  /** The serial number is already on the account, or twice in the file. */
  duplicate: boolean;
}

export interface IncomeImportPreview {
  rows: IncomeImportRow[];
  valid: IncomeItem[];
  total: string;
}

/** The bank-statement columns resovleIncomeExcel reads (row 1 is the header). */
export const INCOME_EXCEL_COLUMNS = [
  '收款账号',
  '银行流水号',
  '付款人名称',
  '付款人账号',
  '付款人开户行',
  '金额',
  '交易日期',
  '备注',
] as const;

// ---------------------------------------------------------------------------------------------
// Write-offs (来款核销)

export const PAID_KINDS = ['normal', 'settlement', 'manual'] as const;
export type PaidKind = (typeof PAID_KINDS)[number];
export const PAID_KIND_LABELS: Record<PaidKind, string> = {
  normal: '正常核销',
  settlement: '提前结清',
  manual: '手工分配',
};

export { COMPONENTS, COMPONENT_LABELS, type Component };

export const paidLineSchema = z.object({
  itemId: int('期次', 1, Number.MAX_SAFE_INTEGER),
  component: oneOf('核销项目', COMPONENTS),
  amount: money('核销金额', { min: 'positive' }),
});
export type PaidLineInput = z.output<typeof paidLineSchema>;

export const paidSaveSchema = z.object({
  paidBizCode: optionalCode('核销编号'),
  version: version.optional(),
  fiidBizCode: code('来款编号'),
  contBizCode: code('合同编号'),
  /** The repayment's value date (penalty accrues to it): on or after the incoming's value date. */
  paidDate: date('核销日期'),
  kind: oneOf('核销方式', PAID_KINDS),
  lines: z
    .array(paidLineSchema, { error: '核销明细格式不正确' })
    .min(1, '请填写核销明细')
    .max(2000, '核销明细过多'),
  remark: optionalText('备注', 500, { multiline: true }),
  ...submitFlag,
});

/** getPaiPlanInfo / getSpecialPlanInfo: the allocation for an amount on a date. */
export const paidSuggestSchema = z.object({
  fiidBizCode: code('来款编号'),
  contBizCode: code('合同编号'),
  paidDate: date('核销日期'),
  /** Defaults to the incoming's balance. */
  amount: money('核销金额', { min: 'positive' }).optional(),
  /** Special write-off only. */
  mode: optionalOneOf('特殊核销方式', ['settlement', 'manual'] as const),
});

export const PAID_EXPORT_FILE_NAME = '来款核销明细.xlsx';

export const paidListSchema = listSchema(
  {
    paidBizCode: optionalCode('核销编号'),
    fiidBizCode: optionalCode('来款编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    state: optionalOneOf('审核状态', DOC_STATES),
    red: bool('已冲红').optional(),
    paidDateFrom: optionalDate('核销日期起'),
    paidDateTo: optionalDate('核销日期止'),
    ...moneyRange('amount', '核销金额'),
  },
  ['paidDate', 'amount', 'updatedAt'],
);

export const paidQuery = z.object({ paidBizCode: code('核销编号') });
export const validPlanQuery = z.object({ contBizCode: code('合同编号'), paidDate: date('核销日期') });
/** 冲红 always says why (shown in the red list and on the entry). */
export const rushRedBody = z.object({ reason: text('冲红原因', 500, { multiline: true }) });

/** An open plan item as of the write-off date (getValidPlanPaid). */
export interface OpenPlanItem {
  itemId: number;
  period: number;
  dueDate: string;
  status: ItemStatus;
  overdueDays: number;
  principal: string;
  interest: string;
  fee: string;
  /**
   * Penalty accrued through the end of the date (paid included): the plan view's, the ledger's and
   * the reminders' figure on that date. open.PENALTY is what a payment dated that day may pay:
   * accrued through the day before (`ValidPlan.penaltyThrough`), less what was paid.
   */
  penaltyAccrued: string;
  open: Record<Component, string>;
  openTotal: string;
}

export interface ValidPlan {
  contBizCode: string;
  contractNo: string;
  custName: string;
  paidDate: string;
  /** The last day whose penalty a write-off dated paidDate pays (paidDate − 1). */
  penaltyThrough: string;
  items: OpenPlanItem[];
  openTotal: string;
}

export interface PaidLineView {
  itemId: number;
  period: number;
  dueDate: string;
  component: Component;
  amount: string;
}

export interface PaidSuggestion {
  kind: PaidKind;
  amount: string;
  lines: PaidLineView[];
  allocated: string;
  unallocated: string;
  /** Early settlement: what the contract needs to settle on the date, and what it waives. */
  settlement?: { total: string; interestWaived: string; feeWaived: string };
}

export interface PaidIncomeCandidate {
  fiidBizCode: string;
  payerName: string;
  valueDate: string;
  amount: string;
  balance: string;
  serialNo: string;
}

export interface PaidInit {
  income: PaidIncomeCandidate;
  /** Effective contracts this incoming may serve (payer or customer name matches first). */
  contracts: { contBizCode: string; contractNo: string; custName: string; principalOpen: string }[];
  paidDate: string;
}

export interface PaidRow {
  paidBizCode: string;
  fiidBizCode: string;
  payerName: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  paidDate: string;
  kind: PaidKind;
  amount: string;
  principal: string;
  state: DocState;
  red: boolean;
  updatedAt: string;
}

export interface PaidView extends PaidRow {
  version: number;
  remark: string | null;
  income: PaidIncomeCandidate;
  lines: PaidLineView[];
  /** What the approval released on the credit line (0.00 on a one-off line). */
  released: string;
  settledContract: boolean;
  redBizCode: string | null;
}

// ---------------------------------------------------------------------------------------------
// Paid-red entries (来款核销冲红)

export const paidRedQuery = z.object({ paidRedBizCode: code('冲红编号') });
export const paidRedListSchema = listSchema(
  {
    paidRedBizCode: optionalCode('冲红编号'),
    paidBizCode: optionalCode('核销编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    state: optionalOneOf('审核状态', DOC_STATES),
  },
  ['redDate', 'amount', 'updatedAt'],
);

export interface PaidRedRow {
  paidRedBizCode: string;
  paidBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  redDate: string;
  /** Negative: the entry posts the negative of its write-off ("-1000.00"). */
  amount: string;
  reason: string | null;
  state: DocState;
  updatedAt: string;
}

export interface PaidRedView extends PaidRedRow {
  /** The red lines: the write-off's lines with negative amounts. */
  lines: PaidLineView[];
  paid: PaidView;
}

// ---------------------------------------------------------------------------------------------
// Reconciliation (对账)

export const reconcileSchema = z.object({
  dateFrom: date('开始日期'),
  dateTo: date('结束日期'),
});

export interface ReconcileIncome {
  fiidBizCode: string;
  payerName: string;
  valueDate: string;
  amount: string;
  allocated: string;
  unallocated: string;
  /** Σ approved write-off lines − Σ approved red lines on this incoming. */
  posted: string;
  difference: string;
}

export interface ReconcileItem {
  contBizCode: string;
  contractNo: string;
  period: number;
  component: Component;
  /** The plan item's paid figure. */
  paid: string;
  posted: string;
  difference: string;
}

export interface Reconciliation {
  dateFrom: string;
  dateTo: string;
  incomes: number;
  received: string;
  allocated: string;
  unallocated: string;
  /** Net approved write-offs dated in the range. */
  writtenOff: string;
  reversed: string;
  incomeDifferences: ReconcileIncome[];
  itemDifferences: ReconcileItem[];
  balanced: boolean;
}
