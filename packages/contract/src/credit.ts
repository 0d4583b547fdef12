import { z } from 'zod';
import {
  code,
  date,
  isRealDate,
  money,
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
import { fileToken, type FileInfo } from './files';
import { DOC_STATES, DOC_STATE_LABELS, submitFlag, type DocState } from './workflow';

/** Every credit call, without the /api prefix (docs/protocol.md "Paths and methods"). */
const BASE = '/ft/api/credit';
export const CREDIT_PATHS = {
  dict: `${BASE}/dict`,
  creditList: `${BASE}/creditList`,
  /** The credit list's filters and sort as a streamed xlsx (every matching row). */
  creditListExport: `${BASE}/creditListExport`,
  credDistributionList: `${BASE}/credDistributionList`,
  credChangeList: `${BASE}/credChangeList`,
  creditPlatform: `${BASE}/creditPlatform`,
  creditGua: `${BASE}/creditGua`,
  /** ?bizCode: the credit's collateral (抵质押物), with the age of each valuation. */
  creditCollateral: `${BASE}/creditCollateral`,
  creditFt: `${BASE}/creditFt`,
  receivables: `${BASE}/receivables`,
  creditHistory: `${BASE}/creditHistory`,
  /** ?bizCode: the credit's occupation ledger (授信历史) as xlsx. */
  creditHistoryExport: `${BASE}/creditHistoryExport`,
  credFile: `${BASE}/credFile`,
  credDistribution: `${BASE}/credDistribution`,
  credDistributionFile: `${BASE}/credDistributionFile`,
  credChange: `${BASE}/credChange`,
  /** ?compdif=all: the customers that may hold a credit (enabled and admitted); a role: its customers. */
  compList: `${BASE}/compList`,
  userList: `${BASE}/userList`,
  custFileList: `${BASE}/custFileList`,
  saveCreditPlatform: `${BASE}/save/creditPlatform`,
  saveCreditGua: `${BASE}/save/creditGua`,
  /** Ends one guarantee of a pending or approved credit (解除担保), by a holder of 审核. */
  releaseGuarantee: `${BASE}/save/releaseGuarantee`,
  saveCreditFt: `${BASE}/save/creditFt`,
  saveReceivables: `${BASE}/save/receivables`,
  saveInvoiceVerification: `${BASE}/save/invoiceVerification`,
  saveCredFile: `${BASE}/save/credFile`,
  saveCredDistribution: `${BASE}/save/credDistribution`,
  saveCredDistributionFile: `${BASE}/save/credDistributionFile`,
  saveCredChange: `${BASE}/save/credChange`,
  deleteCreditPlatform: `${BASE}/delete/creditPlatform`,
  deleteCredDistribution: `${BASE}/delete/credDistribution`,
  deleteCredChange: `${BASE}/delete/credChange`,
  passCredit: `${BASE}/pass/credit`,
  passCredDistribution: `${BASE}/pass/credDistribution`,
  passCredChange: `${BASE}/pass/credChange`,
  rejectCredit: `${BASE}/reject/credit`,
  rejectCredDistribution: `${BASE}/reject/credDistribution`,
  rejectCredChange: `${BASE}/reject/credChange`,
  importReceivables: `${BASE}/import/receivables`,
  /** An addition: utilisation per customer (limit / occupied / available) for the chart and dashboard. */
  utilisation: `${BASE}/utilisation`,
  /** An addition: the approved lines of a customer, for the contract's credit picker. */
  lines: `${BASE}/lines`,
} as const;

// ---------------------------------------------------------------------------------------------
// Dictionaries

/** The workflow's document states (draft -> pending -> approved | rejected). */
export { DOC_STATES, DOC_STATE_LABELS };
export type { DocState };

export const CURRENCIES = ['CNY'] as const;
export const CURRENCY_LABELS = { CNY: '人民币' } as const;

export const CYCLES = ['cyclical', 'oneOff'] as const;
export type Cycle = (typeof CYCLES)[number];
export const CYCLE_LABELS: Record<Cycle, string> = { cyclical: '循环', oneOff: '一次性' };

export const GUARANTEE_TYPES = ['joint', 'general', 'mortgage', 'pledge'] as const;
export const GUARANTEE_TYPE_LABELS: Record<(typeof GUARANTEE_TYPES)[number], string> = {
  joint: '连带责任保证',
  general: '一般保证',
  mortgage: '抵押',
  pledge: '质押',
};

/**
 * Whether a credit requires a guarantee (担保要求, docs/credit.md "Guarantees and collateral"):
 * a `guaranteed` credit is approved only with a guarantee in force on the business date.
 */
export const GUARANTEE_MODES = ['credit', 'guaranteed'] as const;
export type GuaranteeMode = (typeof GUARANTEE_MODES)[number];
export const GUARANTEE_MODE_LABELS: Record<GuaranteeMode, string> = {
  credit: '信用（无需担保）',
  guaranteed: '须有担保',
};

export const GUARANTOR_KINDS = ['enterprise', 'person'] as const;
export type GuarantorKind = (typeof GUARANTOR_KINDS)[number];
export const GUARANTOR_KIND_LABELS: Record<GuarantorKind, string> = { enterprise: '企业', person: '自然人' };

export const COLLATERAL_KINDS = [
  'realEstate',
  'land',
  'equipment',
  'vehicle',
  'receivable',
  'deposit',
  'equity',
  'other',
] as const;
export type CollateralKind = (typeof COLLATERAL_KINDS)[number];
export const COLLATERAL_KIND_LABELS: Record<CollateralKind, string> = {
  realEstate: '房产',
  land: '土地使用权',
  equipment: '机器设备',
  vehicle: '车辆',
  receivable: '应收账款',
  deposit: '存单/保证金',
  equity: '股权',
  other: '其他',
};

/** Where a guarantee stands on a date (guaranteeStatus). */
export const GUARANTEE_STATUSES = ['notStarted', 'inForce', 'expiring', 'expired', 'released'] as const;
export type GuaranteeStatus = (typeof GUARANTEE_STATUSES)[number];
export const GUARANTEE_STATUS_LABELS: Record<GuaranteeStatus, string> = {
  notStarted: '未生效',
  inForce: '有效',
  expiring: '即将到期',
  expired: '已到期',
  released: '已解除',
};

/** The files module's doc_type of the contracts of guarantee, filed under the credit's code. */
export const GUARANTEE_FILE_DOC_TYPE = 'creditGua';

export const RECOURSES = ['with', 'without'] as const;
export const RECOURSE_LABELS: Record<(typeof RECOURSES)[number], string> = {
  with: '有追索',
  without: '无追索',
};

export const PRODUCTS = ['factoring', 'reverseFactoring', 'supplyChain', 'other'] as const;
export const PRODUCT_LABELS: Record<(typeof PRODUCTS)[number], string> = {
  factoring: '保理',
  reverseFactoring: '反向保理',
  supplyChain: '供应链融资',
  other: '其他',
};

export const LINE_KINDS = ['platform', 'debtor', 'distribution'] as const;
export type LineKind = (typeof LINE_KINDS)[number];
export const LINE_KIND_LABELS: Record<LineKind, string> = {
  platform: '平台额度',
  debtor: '保理子额度',
  distribution: '分配额度',
};

export const MOVEMENTS = [
  'occupy',
  'release',
  'reoccupy',
  'reserve',
  'unreserve',
  'create',
  'limit_change',
  'extend',
  'freeze',
  'unfreeze',
] as const;
export type Movement = (typeof MOVEMENTS)[number];
export const MOVEMENT_LABELS: Record<Movement, string> = {
  occupy: '占用',
  release: '释放',
  reoccupy: '冲红恢复占用',
  reserve: '分配预留',
  unreserve: '取消预留',
  create: '额度生效',
  limit_change: '额度调整',
  extend: '延长期限',
  freeze: '冻结',
  unfreeze: '解冻',
};

export const CHANGE_TYPES = ['raise', 'lower', 'extend', 'freeze', 'unfreeze'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export const CHANGE_TYPE_LABELS: Record<ChangeType, string> = {
  raise: '提额',
  lower: '降额',
  extend: '延期',
  freeze: '冻结',
  unfreeze: '解冻',
};

export const DIST_TARGETS = ['member', 'product'] as const;
export const DIST_TARGET_LABELS: Record<(typeof DIST_TARGETS)[number], string> = {
  member: '集团成员',
  product: '产品',
};

export type { DictItem };
const items = dictItems;

/**
 * The `dict` call's answer: one list of `{ type, code, label }` (docs/protocol.md "Values on the wire"),
 * filtered by type.
 */
export const CREDIT_DICT: readonly DictItem[] = [
  ...items('state', DOC_STATE_LABELS),
  ...items('currency', CURRENCY_LABELS),
  ...items('cycle', CYCLE_LABELS),
  ...items('guaranteeType', GUARANTEE_TYPE_LABELS),
  ...items('guaranteeMode', GUARANTEE_MODE_LABELS),
  ...items('guarantorKind', GUARANTOR_KIND_LABELS),
  ...items('collateralKind', COLLATERAL_KIND_LABELS),
  ...items('guaranteeStatus', GUARANTEE_STATUS_LABELS),
  ...items('recourse', RECOURSE_LABELS),
  ...items('product', PRODUCT_LABELS),
  ...items('lineKind', LINE_KIND_LABELS),
  ...items('movement', MOVEMENT_LABELS),
  ...items('changeType', CHANGE_TYPE_LABELS),
  ...items('distTarget', DIST_TARGET_LABELS),
];

// ---------------------------------------------------------------------------------------------
// Field helpers

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A financing ratio: decimal fraction 0 to 1 with at most 4 decimals ("0.8000" = 80 %). */
export function ratio(label: string) {
  return z
    .string({
      error: (i) => (i.input === undefined || i.input === null ? `${label}不能为空` : `${label}格式不正确`),
    })
    .trim()
    .regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/, `${label}必须是0到1之间最多4位小数`);
}

/** `?bizCode=` and optionally `&credBizCode=` (the credit queries). */
export const creditQuery = z.strictObject({ bizCode: code('编号'), credBizCode: optionalCode('授信编号') });
export const bizCodeOnly = z.strictObject({ bizCode: code('编号') });
export const compListQuery = z.strictObject({ compdif: text('企业类型', 20) });
export const userListQuery = z.strictObject({ userdif: text('用户类型', 20) });
export const custFileQuery = z.strictObject({ custBizCode: code('客户编号') });
export const linesQuery = z.strictObject({ custCode: code('客户编号') });

// ---------------------------------------------------------------------------------------------
// Credit record (授信)

export const CREDIT_EXPORT_FILE_NAME = '授信明细.xlsx';
/** The occupation ledger of one credit: 授信历史_<授信编号>.xlsx. */
export const creditHistoryFileName = (bizCode: string) => `授信历史_${bizCode}.xlsx`;

export const creditListSchema = listSchema(
  {
    bizCode: optionalCode('授信编号'),
    custCode: optionalCode('客户编号'),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('状态', DOC_STATES),
    cycle: optionalOneOf('额度类型', CYCLES),
    endDateStart: optionalDate('到期日起'),
    endDateEnd: optionalDate('到期日止'),
    ...moneyRange('limitAmount', '授信额度'),
  },
  ['bizCode', 'custName', 'limitAmount', 'startDate', 'endDate', 'updatedAt'],
);

export const platformSaveSchema = z
  .object({
    bizCode: optionalCode('授信编号'),
    version: version.optional(),
    custCode: code('客户编号'),
    /** Filled from the customer record; what the client sends is ignored. */
    custName: optionalText('客户名称', 100),
    limitAmount: money('授信总额度', { min: 'positive' }),
    currency: oneOf('币种', CURRENCIES).default('CNY'),
    startDate: date('起始日'),
    endDate: date('到期日'),
    cycle: oneOf('额度类型', CYCLES),
    product: oneOf('产品', PRODUCTS),
    /** Absent: 信用 (no guarantee required), as every credit before guarantees were required. */
    guaranteeMode: oneOf('担保要求', GUARANTEE_MODES).default('credit'),
    remark: optionalText('备注', 500, { multiline: true }),
    /** true: save, then submit for approval (draft/rejected -> pending). */
    ...submitFlag,
  })
  .refine((v) => v.endDate >= v.startDate, { message: '到期日不能早于起始日', path: ['endDate'] });
export type PlatformSave = z.input<typeof platformSaveSchema>;

/** 居民身份证号 (GB 11643): 17 digits of which 6 region, 8 a real birth date, and the check character. */
export function idCardProblem(v: string): string | null {
  if (!/^\d{17}[\dX]$/.test(v)) return '身份证号必须是18位，末位为数字或X';
  const birth = `${v.slice(6, 10)}-${v.slice(10, 12)}-${v.slice(12, 14)}`;
  if (!isRealDate(birth) || birth < '1900-01-01') return '身份证号中的出生日期不正确';
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(v[i]), 0);
  const check = '10X98765432'[sum % 11];
  return v[17] === check ? null : '身份证号校验位不正确';
}

const idNo = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : blankToUndefined(v)),
  z
    .string({ error: '担保人身份证号格式不正确' })
    .superRefine((v, ctx) => {
      const problem = idCardProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `担保人${problem}` });
    })
    .optional(),
);

/**
 * One guarantee (担保): an enterprise guarantor (a customer picked by code where it is one; the name
 * alone otherwise) or a person (name and 身份证号), the amount guaranteed, its period, and the
 * contract of guarantee (保证合同/抵押合同, an uploaded file).
 */
export const guaranteeItemSchema = z
  .object({
    guarantorKind: oneOf('担保人类型', GUARANTOR_KINDS).default('enterprise'),
    guarantorName: text('担保人名称', 100),
    guarantorCode: z.preprocess(blankToUndefined, optionalCode('担保人编号')),
    idNo,
    guaranteeType: oneOf('担保方式', GUARANTEE_TYPES),
    amount: money('担保金额', { min: 'positive' }),
    startDate: date('担保起始日'),
    endDate: date('担保到期日'),
    contractFileToken: z.preprocess(blankToUndefined, fileToken.optional()),
    remark: optionalText('担保备注', 200, { multiline: true }),
  })
  .refine((v) => v.endDate >= v.startDate, { message: '担保到期日不能早于担保起始日', path: ['endDate'] })
  .refine((v) => v.guarantorKind !== 'person' || v.idNo !== undefined, {
    message: '自然人担保人的身份证号不能为空',
    path: ['idNo'],
  })
  .refine((v) => v.guarantorKind !== 'person' || v.guarantorCode === undefined, {
    message: '自然人担保人不能选择企业客户',
    path: ['guarantorCode'],
  })
  .refine((v) => v.guarantorKind !== 'enterprise' || v.idNo === undefined, {
    message: '企业担保人不填身份证号',
    path: ['idNo'],
  });

/** One piece of collateral (抵质押物): kind, value (exact money), valuation date, registration number. */
export const collateralItemSchema = z.object({
  kind: oneOf('抵质押物类型', COLLATERAL_KINDS),
  name: optionalText('抵质押物名称', 100),
  value: money('评估价值', { min: 'positive' }),
  valuationDate: date('评估日期'),
  regNo: text('登记编号', 64),
  remark: optionalText('抵质押物备注', 200, { multiline: true }),
});

export const guaSaveSchema = z.object({
  credBizCode: code('授信编号'),
  version,
  items: z.array(guaranteeItemSchema, { error: '担保信息格式不正确' }).max(50, '担保人不能超过50个'),
  collaterals: z
    .array(collateralItemSchema, { error: '抵质押物格式不正确' })
    .max(100, '抵质押物不能超过100个')
    .default([]),
});

/** Whole days from `from` to `to` (dates YYYY-MM-DD; negative when `to` is earlier). */
export function daysFromTo(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Where a guarantee stands on `date`: 已解除 once released, 未生效 before its start, 已到期 after its
 * end, 即将到期 from `remindDays` days before its end through the end date, 有效 otherwise. A guarantee is
 * "in force" (what a guaranteed credit's approval needs) when 有效 or 即将到期.
 */
export function guaranteeStatus(
  g: { startDate: string; endDate: string; releasedOn: string | null },
  date: string,
  remindDays: number,
): GuaranteeStatus {
  if (g.releasedOn) return 'released';
  if (date < g.startDate) return 'notStarted';
  if (date > g.endDate) return 'expired';
  return daysFromTo(date, g.endDate) <= remindDays ? 'expiring' : 'inForce';
}

export const releaseGuaranteeSchema = z.object({
  credBizCode: code('授信编号'),
  guaranteeId: z.coerce
    .number({ error: '担保编号格式不正确' })
    .int('担保编号格式不正确')
    .positive('担保编号格式不正确'),
  reason: text('解除原因', 200),
});

export const ftItemSchema = z.object({
  debtorCode: optionalCode('债务人编号'),
  debtorName: text('债务人名称', 100),
  limitAmount: money('保理子额度', { min: 'positive' }),
  financingRatio: ratio('融资比例'),
  recourse: oneOf('追索权', RECOURSES),
  remark: optionalText('保理授信备注', 200, { multiline: true }),
});
export const ftSaveSchema = z.object({
  credBizCode: code('授信编号'),
  version,
  items: z.array(ftItemSchema, { error: '保理授信格式不正确' }).max(200, '保理子额度不能超过200个'),
});

/** Invoice code: 10 or 12 digits; number: 8 digits (format rules, no external call). */
export const INVOICE_CODE_PATTERN = /^(\d{10}|\d{12})$/;
export const INVOICE_NO_PATTERN = /^\d{8}$/;

export const receivableItemSchema = z.object({
  invoiceCode: z
    .string({ error: '发票代码不能为空' })
    .trim()
    .regex(INVOICE_CODE_PATTERN, '发票代码必须是10位或12位数字'),
  invoiceNo: z
    .string({ error: '发票号码不能为空' })
    .trim()
    .regex(INVOICE_NO_PATTERN, '发票号码必须是8位数字'),
  invoiceDate: date('开票日期'),
  amount: money('发票金额', { min: 'positive' }),
  debtorName: text('债务人名称', 100),
  debtorCode: optionalCode('债务人编号'),
  dueDate: date('应收账款到期日'),
  remark: optionalText('应收账款备注', 200, { multiline: true }),
});
export type ReceivableItem = z.output<typeof receivableItemSchema>;
export const receivablesSaveSchema = z.object({
  credBizCode: code('授信编号'),
  version,
  items: z.array(receivableItemSchema, { error: '应收账款格式不正确' }).max(2000, '应收账款不能超过2000条'),
});

/** Rows to verify: loose strings, so that every row gets its own verdict instead of one 400. */
export const invoiceVerificationSchema = z.object({
  credBizCode: optionalCode('授信编号'),
  items: z
    .array(
      z.object({
        invoiceCode: z.string({ error: '发票代码格式不正确' }).max(40, '发票代码格式不正确'),
        invoiceNo: z.string({ error: '发票号码格式不正确' }).max(40, '发票号码格式不正确'),
        invoiceDate: z.string({ error: '开票日期格式不正确' }).max(40, '开票日期格式不正确'),
        amount: z.string({ error: '发票金额格式不正确' }).max(40, '发票金额格式不正确'),
      }),
      { error: '待验证发票格式不正确' },
    )
    .min(1, '待验证发票不能为空')
    .max(2000, '待验证发票不能超过2000条'),
});

export interface InvoiceVerdict {
  index: number;
  invoiceCode: string;
  invoiceNo: string;
  ok: boolean;
  errors: string[];
}

/** A document's attachments are exactly these uploaded files (files module). */
const fileTokens = z.array(fileToken, { error: '附件格式不正确' }).max(100, '附件不能超过100个');
export const credFileSaveSchema = z.object({ credBizCode: code('授信编号'), version, fileTokens });

// ---------------------------------------------------------------------------------------------
// Distribution (额度分配)

export const distItemSchema = z
  .object({
    targetType: oneOf('分配对象类型', DIST_TARGETS),
    custCode: optionalCode('成员客户编号'),
    custName: optionalText('成员客户名称', 100),
    product: optionalOneOf('产品', PRODUCTS),
    amount: money('分配额度', { min: 'positive' }),
    remark: optionalText('分配备注', 200, { multiline: true }),
  })
  .refine((v) => v.targetType !== 'member' || !!v.custCode, {
    message: '分配给集团成员时成员客户不能为空',
    path: ['custCode'],
  })
  .refine((v) => v.targetType !== 'product' || !!v.product, {
    message: '分配给产品时产品不能为空',
    path: ['product'],
  });

export const distSaveSchema = z.object({
  bizCode: optionalCode('分配编号'),
  version: version.optional(),
  credBizCode: code('授信编号'),
  remark: optionalText('备注', 500, { multiline: true }),
  items: z
    .array(distItemSchema, { error: '分配明细格式不正确' })
    .min(1, '分配明细不能为空')
    .max(100, '分配明细不能超过100条'),
  ...submitFlag,
});
export type DistSave = z.input<typeof distSaveSchema>;

export const distListSchema = listSchema(
  {
    bizCode: optionalCode('分配编号'),
    credBizCode: optionalCode('授信编号'),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('状态', DOC_STATES),
  },
  ['bizCode', 'custName', 'totalAmount', 'updatedAt'],
);

export const distFileSaveSchema = z.object({ distBizCode: code('分配编号'), version, fileTokens });

// ---------------------------------------------------------------------------------------------
// Change (额度变更)

export const changeSaveSchema = z
  .object({
    bizCode: optionalCode('变更编号'),
    version: version.optional(),
    credBizCode: code('授信编号'),
    /** The line changed; default the credit's platform line. */
    lineCode: optionalCode('额度编号'),
    changeType: oneOf('变更类型', CHANGE_TYPES),
    newLimit: z.preprocess(blankToUndefined, money('变更后额度', { min: 'positive' }).optional()),
    newEndDate: optionalDate('变更后到期日'),
    reason: text('变更原因', 500, { multiline: true }),
    ...submitFlag,
  })
  .refine((v) => !['raise', 'lower'].includes(v.changeType) || v.newLimit !== undefined, {
    message: '变更后额度不能为空',
    path: ['newLimit'],
  })
  .refine((v) => v.changeType !== 'extend' || v.newEndDate !== undefined, {
    message: '变更后到期日不能为空',
    path: ['newEndDate'],
  });
export type ChangeSave = z.input<typeof changeSaveSchema>;

export const changeListSchema = listSchema(
  {
    bizCode: optionalCode('变更编号'),
    credBizCode: optionalCode('授信编号'),
    custName: optionalText('客户名称', 100),
    changeType: optionalOneOf('变更类型', CHANGE_TYPES),
    state: optionalOneOf('状态', DOC_STATES),
  },
  ['bizCode', 'custName', 'updatedAt'],
);

export const utilisationSchema = z.object({
  custCode: optionalCode('客户编号'),
  custName: optionalText('客户名称', 100),
});

// ---------------------------------------------------------------------------------------------
// Answers

export interface LineFigures {
  lineCode: string;
  kind: LineKind;
  custCode: string;
  custName: string;
  debtorCode: string | null;
  debtorName: string | null;
  product: string | null;
  parentLineCode: string | null;
  limitAmount: string;
  occupiedAmount: string;
  reservedAmount: string;
  /** limit − occupied − reserved (what may still be occupied or distributed). */
  availableAmount: string;
  frozen: boolean;
  startDate: string;
  endDate: string;
  cycle: Cycle;
  state: 'active' | 'closed';
  version: number;
}

export interface CreditView {
  bizCode: string;
  version: number;
  state: DocState;
  custCode: string;
  custName: string;
  limitAmount: string;
  currency: string;
  startDate: string;
  endDate: string;
  cycle: Cycle;
  product: string;
  guaranteeMode: GuaranteeMode;
  remark: string | null;
  createdByName: string | null;
  submittedAt: string | null;
  approvedAt: string | null;
  updatedAt: string;
  /** The platform line once approved. */
  line: LineFigures | null;
}

export interface CreditListRow extends Omit<CreditView, 'line'> {
  occupiedAmount: string | null;
  availableAmount: string | null;
  frozen: boolean | null;
}

export interface GuaranteeRow extends z.output<typeof guaranteeItemSchema> {
  id: number;
  /** On the business date: 未生效, 有效, 即将到期 (within the reminder days), 已到期, 已解除. */
  status: GuaranteeStatus;
  /** Days from the business date to the end date (negative once ended). */
  daysLeft: number;
  releasedOn: string | null;
  releaseReason: string | null;
  /** The contract of guarantee, when one is attached. */
  contractFile: FileInfo | null;
}
export interface CollateralRow extends z.output<typeof collateralItemSchema> {
  id: number;
  /** Days since the valuation, on the business date. */
  valuationAgeDays: number;
  /** Older than 参数设置's 抵质押物估值有效天数. */
  stale: boolean;
}
export interface FtRow extends z.output<typeof ftItemSchema> {
  id: number;
  line: LineFigures | null;
}
export interface ReceivableRow extends ReceivableItem {
  id: number;
  verifyState: 'unverified' | 'passed' | 'failed';
  verifyMsg: string | null;
}

export interface HistoryRow {
  id: number;
  lineCode: string;
  lineKind: LineKind;
  movement: Movement;
  amount: string;
  limitAfter: string;
  occupiedAfter: string;
  reservedAfter: string;
  docType: string;
  docCode: string;
  reason: string | null;
  bizDate: string;
  actorName: string | null;
  at: string;
}

export interface DistView {
  bizCode: string;
  version: number;
  state: DocState;
  credBizCode: string;
  custCode: string;
  custName: string;
  parentLineCode: string;
  totalAmount: string;
  remark: string | null;
  items: (z.output<typeof distItemSchema> & { id: number; lineCode: string | null })[];
  parent: LineFigures | null;
  updatedAt: string;
}

export interface ChangeView {
  bizCode: string;
  version: number;
  state: DocState;
  credBizCode: string;
  custCode: string;
  custName: string;
  lineCode: string;
  changeType: ChangeType;
  oldLimit: string;
  newLimit: string | null;
  oldEndDate: string;
  newEndDate: string | null;
  reason: string;
  line: LineFigures | null;
  updatedAt: string;
}

export interface UtilisationRow {
  custCode: string;
  custName: string;
  limitAmount: string;
  occupiedAmount: string;
  reservedAmount: string;
  /** What frozen lines still had available (not usable while frozen). */
  frozenAmount: string;
  /** limit − occupied − frozen. */
  availableAmount: string;
}

export interface ImportPreviewRow {
  row: number;
  item: Partial<Record<keyof ReceivableItem, string>>;
  errors: string[];
}
