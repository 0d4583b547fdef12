import { z } from 'zod';
import {
  code,
  date,
  int,
  money,
  MONEY_PATTERN,
  moneyRange,
  oneOf,
  optionalCode,
  optionalDate,
  optionalOneOf,
  optionalText,
  text,
  version,
} from './fields';
import { listSchema } from './list';
import { dictItems, type DictItem } from './dict';
import { fileToken } from './files';
import type { NoticeState } from './assignment';
import {
  CURRENCIES,
  CURRENCY_LABELS,
  PRODUCTS,
  PRODUCT_LABELS,
  RECOURSES,
  RECOURSE_LABELS,
  ratio,
  receivableItemSchema,
  type LineFigures,
} from './credit';
import { DOC_STATES, DOC_STATE_LABELS, submitFlag, type DocState } from './workflow';
import { METHOD_LABELS, type InterestRuleCalc, type Method } from './plan/rule';
import type { PlanResult } from './plan/schedule';
import type { ItemStatus } from './plan/accrual';
import { D } from './plan/money';

export { CONTRACT_PATHS, HANDOVER_PATHS } from './contract-paths';

// ---------------------------------------------------------------------------------------------
// Dictionaries

export const DISCLOSURES = ['disclosed', 'undisclosed'] as const;
export type Disclosure = (typeof DISCLOSURES)[number];
export const DISCLOSURE_LABELS: Record<Disclosure, string> = { disclosed: '明保理', undisclosed: '暗保理' };

/** The business life of a contract once approved (the workflow state is `state`). */
export const CONTRACT_STATUSES = ['none', 'effective', 'settled', 'writtenOff'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  none: '未生效',
  effective: '履约中',
  settled: '已结清',
  // 核销坏账 approved (docs/accounting.md "Bad-debt write-off").
  writtenOff: '已核销',
};

export const LOAN_STATES = ['none', 'loaned'] as const;
export type LoanState = (typeof LOAN_STATES)[number];
export const LOAN_STATE_LABELS: Record<LoanState, string> = { none: '未放款', loaned: '已放款' };

/** 应收费用 kinds. The up-front ones are what a prepayment (前期款) collects. */
export const DUE_KINDS = ['margin', 'upfrontInterest', 'upfrontFee', 'serviceFee', 'other'] as const;
export type DueKind = (typeof DUE_KINDS)[number];
export const DUE_KIND_LABELS: Record<DueKind, string> = {
  margin: '保证金',
  upfrontInterest: '前置利息',
  upfrontFee: '前置手续费',
  serviceFee: '服务费',
  other: '其他费用',
};

export const ORIGINAL_KINDS = ['original', 'copy'] as const;
export const ORIGINAL_KIND_LABELS: Record<(typeof ORIGINAL_KINDS)[number], string> = {
  original: '原件',
  copy: '复印件',
};

export { DOC_STATES, DOC_STATE_LABELS, CURRENCIES, RECOURSES, PRODUCTS, METHOD_LABELS };
export type { DocState, ItemStatus, Method };

const items = dictItems;

/** The dictionaries behind dict, list/dict, info/dict, … (one answer, each screen picks its types). */
export const CONTRACT_DICT: readonly DictItem[] = [
  ...items('state', DOC_STATE_LABELS),
  ...items('status', CONTRACT_STATUS_LABELS),
  ...items('loanState', LOAN_STATE_LABELS),
  ...items('recourse', RECOURSE_LABELS),
  ...items('disclosure', DISCLOSURE_LABELS),
  ...items('product', PRODUCT_LABELS),
  ...items('currency', CURRENCY_LABELS),
  ...items('method', METHOD_LABELS),
  ...items('dueKind', DUE_KIND_LABELS),
  ...items('originalKind', ORIGINAL_KIND_LABELS),
];

// ---------------------------------------------------------------------------------------------
// Queries

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const contractCodeQuery = z.strictObject({ bizCode: code('合同编号') });
export const contBizCodeQuery = z.strictObject({ contBizCode: code('合同编号') });
export const changeCodeQuery = z.strictObject({ bizCode: code('变更编号') });
export const custCodeQuery = z.strictObject({ custCode: code('客户编号') });
export const platCredQuery = z.strictObject({ platCredBizCode: code('平台授信编号') });
export const detailCodeQuery = z.strictObject({ contractdetailCode: code('业务信息编号') });
export const handoverViewQuery = z.strictObject({
  bizCode: code('交接单编号'),
  departmentCode: optionalCode('部门编号'),
  companyCode: optionalCode('公司编号'),
});
export const handoverCodeQuery = z.strictObject({ bizCode: code('交接单编号') });

// ---------------------------------------------------------------------------------------------
// Contract info (基本信息) with receivables and payers

export const payerSchema = z.object({
  payerName: text('付款方名称', 100),
  payerCode: optionalCode('付款方编号'),
  accountName: optionalText('付款方户名', 100),
  accountNo: z.preprocess(
    blankToUndefined,
    z
      .string({ error: '付款方账号格式不正确' })
      .trim()
      .regex(/^\d{6,32}$/, '付款方账号必须是6到32位数字')
      .optional(),
  ),
  bankName: optionalText('付款方开户行', 100),
  remark: optionalText('付款方备注', 200, { multiline: true }),
});
export type PayerItem = z.output<typeof payerSchema>;

export const contractReceivableSchema = receivableItemSchema;
export type ContractReceivable = z.output<typeof contractReceivableSchema>;

export const infoSaveSchema = z
  .object({
    bizCode: optionalCode('合同编号'),
    version: version.optional(),
    contractNo: text('合同号', 50, { nfkc: true }),
    recourse: oneOf('追索类型', RECOURSES),
    disclosure: oneOf('公开类型', DISCLOSURES),
    product: oneOf('产品', PRODUCTS),
    custCode: code('客户编号'),
    coreCompCode: optionalCode('核心企业'),
    platCredBizCode: code('平台授信编号'),
    /** The credit line this contract occupies on approval (a line of that credit). */
    lineCode: code('占用额度'),
    financingRatio: ratio('融资比例'),
    financingAmount: money('融资金额', { min: 'positive' }),
    /** 保证金比例 of the financing amount; the margin due follows it. */
    marginRatio: z.preprocess(blankToUndefined, ratio('保证金比例').optional()),
    currency: oneOf('币种', CURRENCIES).default('CNY'),
    startDate: date('起始日'),
    maturityDate: date('到期日'),
    ruleBizCode: code('计息规则'),
    bankBizCode: code('还款账户'),
    deptCode: optionalCode('业务部门'),
    managerId: z.preprocess(blankToUndefined, int('业务经理', 1, 2_147_483_647).optional()),
    remark: optionalText('备注', 500, { multiline: true }),
    receivables: z
      .array(contractReceivableSchema, { error: '应收账款格式不正确' })
      .min(1, '应收账款不能为空')
      .max(2000, '应收账款不能超过2000条'),
    payers: z
      .array(payerSchema, { error: '付款方信息格式不正确' })
      .min(1, '付款方信息不能为空')
      .max(50, '付款方不能超过50个'),
    ...submitFlag,
  })
  .refine((v) => v.maturityDate > v.startDate, { message: '到期日必须晚于起始日', path: ['maturityDate'] });
export type InfoSave = z.input<typeof infoSaveSchema>;

export const CONTRACT_EXPORT_FILE_NAME = '合同信息.xlsx';

export const contractListSchema = listSchema(
  {
    bizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    status: optionalOneOf('合同状态', CONTRACT_STATUSES),
    loanState: optionalOneOf('放款状态', LOAN_STATES),
    startDateFrom: optionalDate('起始日起'),
    startDateTo: optionalDate('起始日止'),
    maturityFrom: optionalDate('到期日起'),
    maturityTo: optionalDate('到期日止'),
    ...moneyRange('financingAmount', '融资金额'),
    /** Contracts with an overdue item (the dashboard's click-through). */
    overdue: z.preprocess(
      (v) => (v === true || v === 'true' || v === '1' ? true : undefined),
      z.literal(true).optional(),
    ),
    /** Contracts with an open item due in this range (the dashboard's 7/30-day figures). */
    itemDueFrom: optionalDate('还款日起'),
    itemDueTo: optionalDate('还款日止'),
  },
  ['bizCode', 'contractNo', 'custName', 'financingAmount', 'startDate', 'maturityDate', 'updatedAt'],
);

// ---------------------------------------------------------------------------------------------
// Scheme (方案) and plan (还款计划)

export const customPlanRowSchema = z.object({
  dueDate: date('还款日'),
  principal: money('本金', { min: 'positive' }),
});
export type CustomPlanRow = z.output<typeof customPlanRowSchema>;
const customItems = z
  .array(customPlanRowSchema, { error: '自定义还款计划格式不正确' })
  .max(360, '还款计划不能超过360期');

/** Save the plan of a draft contract: generated from its amount, dates and rule, or custom rows. */
export const schemeSaveSchema = z.object({
  contBizCode: code('合同编号'),
  version,
  customItems: customItems.optional(),
});

/** Compute a plan without saving: for a saved contract (contBizCode) or the editor's unsaved values. */
export const planAddSchema = z
  .object({
    contBizCode: optionalCode('合同编号'),
    financingAmount: z.preprocess(blankToUndefined, money('融资金额', { min: 'positive' }).optional()),
    startDate: optionalDate('起始日'),
    maturityDate: optionalDate('到期日'),
    ruleBizCode: optionalCode('计息规则'),
    customItems: customItems.optional(),
  })
  .refine(
    (v) => !!v.contBizCode || (!!v.financingAmount && !!v.startDate && !!v.maturityDate && !!v.ruleBizCode),
    {
      message: '请填写融资金额、起始日、到期日和计息规则',
      path: ['contBizCode'],
    },
  );

// ---------------------------------------------------------------------------------------------
// Dues (应收费用), business info (业务信息), files (附件)

export const dueItemSchema = z.object({
  kind: oneOf('费用类型', DUE_KINDS),
  amount: money('费用金额', { min: 'positive' }),
  dueDate: date('应收日期'),
  remark: optionalText('费用备注', 200, { multiline: true }),
  /** Why an up-front item differs from the rule's figure (docs/money-lifecycle.md "Implied up-front items"). */
  reason: optionalText('原因', 200, { multiline: true }),
});
export type DueItem = z.output<typeof dueItemSchema>;
/**
 * An up-front due whose amount is not the rule's figure (a well-formed amount against a figure the
 * rule implies): it needs a reason (docs/money-lifecycle.md "Implied up-front items").
 */
export function differsFromRule(amount: string, ruleAmount: string | null): boolean {
  return ruleAmount !== null && MONEY_PATTERN.test(amount) && !new D(amount).eq(ruleAmount);
}

export const dueSaveSchema = z.object({
  contBizCode: code('合同编号'),
  version,
  items: z.array(dueItemSchema, { error: '应收费用格式不正确' }).max(50, '应收费用不能超过50条'),
});

export const businessInfoSchema = z.object({
  tradeContractNo: text('贸易合同号', 50, { nfkc: true }),
  goodsName: text('货物名称', 100),
  tradeAmount: money('贸易合同金额', { min: 'positive' }),
  tradeDate: optionalDate('贸易合同签订日'),
  settlementDays: z.preprocess(blankToUndefined, int('账期天数', 0, 3650).optional()),
  remark: optionalText('业务备注', 500, { multiline: true }),
  fileTokens: z.array(fileToken, { error: '附件格式不正确' }).max(50, '附件不能超过50个').default([]),
});
export const businessSaveSchema = businessInfoSchema.extend({ contBizCode: code('合同编号'), version });

export const fileSaveSchema = z.object({
  contBizCode: code('合同编号'),
  version,
  fileTokens: z.array(fileToken, { error: '附件格式不正确' }).max(100, '附件不能超过100个'),
});

// ---------------------------------------------------------------------------------------------
// Contract change (合同变更)

/** The info fields a change may propose; absent means unchanged. */
export const changeInfoSchema = z.object({
  financingAmount: z.preprocess(blankToUndefined, money('变更后融资金额', { min: 'positive' }).optional()),
  financingRatio: z.preprocess(blankToUndefined, ratio('变更后融资比例').optional()),
  maturityDate: optionalDate('变更后到期日'),
  lineCode: optionalCode('变更后占用额度'),
  ruleBizCode: optionalCode('变更后计息规则'),
  bankBizCode: optionalCode('变更后还款账户'),
  remark: optionalText('变更后备注', 500, { multiline: true }),
});

export const changeSaveSchema = z.object({
  bizCode: optionalCode('变更编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  reason: text('变更原因', 500, { multiline: true }),
  /** The first day the new terms apply (the plan is re-planned from here); defaults to the business date. */
  effectiveDate: optionalDate('变更生效日'),
  info: changeInfoSchema.default({}),
  receivables: z.array(contractReceivableSchema).max(2000, '应收账款不能超过2000条').optional(),
  payers: z.array(payerSchema).min(1, '付款方信息不能为空').max(50, '付款方不能超过50个').optional(),
  customItems: customItems.optional(),
  dues: z.array(dueItemSchema).max(50, '应收费用不能超过50条').optional(),
  business: businessInfoSchema.optional(),
  fileTokens: z.array(fileToken).max(100, '附件不能超过100个').optional(),
  ...submitFlag,
});
export type ChangeSave = z.input<typeof changeSaveSchema>;

export const changeListSchema = listSchema(
  {
    bizCode: optionalCode('变更编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
  },
  ['bizCode', 'contractNo', 'custName', 'updatedAt'],
);

// ---------------------------------------------------------------------------------------------
// Handover sheet (资料交接单)

export const handoverItemSchema = z.object({
  docName: text('资料名称', 100),
  kind: oneOf('原件/复印件', ORIGINAL_KINDS),
  copies: int('份数', 1, 999),
  pages: z.preprocess(blankToUndefined, int('页数', 1, 99_999).optional()),
  remark: optionalText('资料备注', 200, { multiline: true }),
});
export const handoverSaveSchema = z.object({
  bizCode: optionalCode('交接单编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  departmentCode: optionalCode('部门编号'),
  companyCode: optionalCode('公司编号'),
  handoverName: text('移交人', 50),
  receiverName: text('接收人', 50),
  handoverDate: date('交接日期'),
  remark: optionalText('备注', 500, { multiline: true }),
  items: z
    .array(handoverItemSchema, { error: '交接资料格式不正确' })
    .min(1, '交接资料不能为空')
    .max(200, '交接资料不能超过200项'),
  ...submitFlag,
});
/** A contract picker's search: part of the 合同号 or of the customer's name (blank: the newest). */
export const contractPickSchema = z.object({
  keyword: optionalText('合同号/客户名称', 100, { nfkc: true }),
});

/** One choice of a contract picker. */
export interface ContractPick {
  bizCode: string;
  contractNo: string;
  custName: string;
}

export const handoverListSchema = listSchema(
  {
    bizCode: optionalCode('交接单编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    state: optionalOneOf('审核状态', DOC_STATES),
  },
  ['bizCode', 'handoverDate', 'updatedAt'],
);

/** An xlsx import answer: every row with its own errors; `ok` only when no row has one. */
export interface ImportPreview<T> {
  ok: boolean;
  rows: { row: number; item: Partial<Record<keyof T, string>>; errors: string[] }[];
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface ContractInfo {
  bizCode: string;
  version: number;
  state: DocState;
  status: ContractStatus;
  loanState: LoanState;
  contractNo: string;
  recourse: (typeof RECOURSES)[number];
  disclosure: Disclosure;
  product: (typeof PRODUCTS)[number];
  custCode: string;
  custName: string;
  coreCompCode: string | null;
  coreCompName: string | null;
  platCredBizCode: string;
  lineCode: string;
  financingRatio: string;
  financingAmount: string;
  marginRatio: string | null;
  /** Σ receivables. */
  receivablesAmount: string;
  currency: string;
  startDate: string;
  maturityDate: string;
  ruleBizCode: string;
  ruleName: string | null;
  bankBizCode: string;
  bankName: string | null;
  bankAccountNo: string | null;
  deptCode: string | null;
  deptName: string | null;
  managerId: number | null;
  managerName: string | null;
  remark: string | null;
  /** What this contract holds on its line now (financing − released). */
  occupiedAmount: string;
  loanDate: string | null;
  /** financing − 前置 interest − 前置 fee, set at 放款. */
  loanAmount: string | null;
  /** The 放款单 in force (null before disbursement, and for contracts loaned before 放款单 existed). */
  loanBizCode: string | null;
  /** A change of this contract awaiting approval, if any. */
  openChangeCode: string | null;
  submittedAt: string | null;
  approvedAt: string | null;
  createdByName: string | null;
  updatedAt: string;
  receivables: ContractReceivable[];
  payers: PayerItem[];
}

export interface ContractListRow {
  bizCode: string;
  contractNo: string;
  custName: string;
  product: (typeof PRODUCTS)[number];
  financingAmount: string;
  startDate: string;
  maturityDate: string;
  state: DocState;
  status: ContractStatus;
  loanState: LoanState;
  /** 转让通知: 暗保理 无需通知, 明保理 待确认 / 已确认 (docs/assignment-notice.md). */
  noticeState: NoticeState;
  /** Σ principal outstanding of the active plan ("0.00" before approval). */
  principalOutstanding: string;
  updatedAt: string;
}

/** A stored plan item with what was paid on each component. */
export interface PlanItemView {
  id: number;
  period: number;
  startDate: string;
  dueDate: string;
  days: number;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  total: string;
  principalPaid: string;
  interestPaid: string;
  feePaid: string;
  penaltyPaid: string;
  /** Due − paid over the four components on the business date (penalty: accrued to it). */
  outstanding: string;
  overdueDays: number;
  status: ItemStatus;
}

export interface SchemeView {
  contBizCode: string;
  version: number;
  ruleBizCode: string;
  ruleName: string | null;
  /** The rule the plan was computed with (frozen at approval). */
  rule: InterestRuleCalc | null;
  method: Method | null;
  upfrontInterest: string;
  upfrontFee: string;
  totalInterest: string;
  totalFee: string;
  /** The business date the items' outstanding, overdue days and penalty are as of. */
  asOf: string;
  items: PlanItemView[];
}

export type PlanPreview = PlanResult;

export interface DueView {
  id: number;
  kind: DueKind;
  amount: string;
  dueDate: string;
  receivedAmount: string;
  remark: string | null;
  /** What the contract's rule and terms put on this up-front kind (null: the rule implies none). */
  ruleAmount: string | null;
  /** The maker's reason for an amount other than the rule's. */
  reason: string | null;
}

export interface BusinessInfoView {
  contractdetailCode: string | null;
  tradeContractNo: string | null;
  goodsName: string | null;
  tradeAmount: string | null;
  tradeDate: string | null;
  settlementDays: number | null;
  remark: string | null;
  fileTokens: string[];
}

export interface ContractInit {
  platCredBizCode: string;
  custCode: string;
  custName: string;
  recourse: (typeof RECOURSES)[number] | null;
  product: (typeof PRODUCTS)[number];
  currency: string;
  /** The approved, usable lines of the credit (platform, its debtor sub-limits, distributions). */
  lines: LineFigures[];
  /** The credit's receivables not yet transferred to a contract. */
  receivables: ContractReceivable[];
}

export interface ChangeView {
  bizCode: string;
  version: number;
  state: DocState;
  contBizCode: string;
  contractNo: string;
  custName: string;
  reason: string;
  effectiveDate: string | null;
  proposal: z.output<typeof changeSaveSchema>;
  submittedAt: string | null;
  approvedAt: string | null;
  updatedAt: string;
}

export interface ChangeListRow {
  bizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  reason: string;
  state: DocState;
  updatedAt: string;
}

/** chg/* views: the section as it is (or was, for an approved change) and as the change makes it. */
/** Display names the 变更信息 section carries next to its codes (the screen shows these). */
export interface ChangeInfoNames {
  ruleName: string | null;
  bankName: string | null;
  lineName: string | null;
}

export interface BeforeAfter<T> {
  before: T;
  after: T;
  /** Field names whose values differ (the screen marks them). */
  changed: string[];
}

export interface HandoverView {
  bizCode: string;
  version: number;
  state: DocState;
  contBizCode: string;
  contractNo: string;
  custName: string;
  departmentCode: string | null;
  companyCode: string | null;
  handoverName: string;
  receiverName: string;
  handoverDate: string;
  remark: string | null;
  items: z.output<typeof handoverItemSchema>[];
  updatedAt: string;
}

export interface HandoverListRow {
  bizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  handoverDate: string;
  receiverName: string;
  state: DocState;
  updatedAt: string;
}

export interface CompanyMember {
  userId: number;
  name: string;
  deptCode: string | null;
  deptName: string | null;
}
