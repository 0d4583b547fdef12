import { z } from 'zod';
import { code, oneOf, optionalCode, optionalDate, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { infoSaveSchema } from './contract';
import type { TemplateVocabulary } from './print/template';

/** `/ft/api/print` without the /api prefix: print templates, previews and PDFs. */
const BASE = '/ft/api/print';
export const PRINT_PATHS = {
  /** ?bizType: the placeholder catalogue of a business type (what the editor shows). */
  info: `${BASE}/info`,
  /** Core enterprises a template may be dedicated to. */
  getCoreComp: `${BASE}/info/getCoreComp`,
  list: `${BASE}/list`,
  /** ?bizCode */
  view: `${BASE}/view`,
  save: `${BASE}/save`,
  /** ?bizCode */
  enable: `${BASE}/enable`,
  disable: `${BASE}/disable`,
  delete: `${BASE}/delete`,
  /** A document printed with a template, as HTML (text/html). */
  perViewHtml: `${BASE}/perViewHtml`,
  /** A contract not yet saved, printed with a contract template, as HTML. */
  preContViewHtml: `${BASE}/preContViewHtml`,
  /** A document printed with a template, as an A4 PDF (application/pdf). */
  perViewPdf: `${BASE}/perViewPdf`,
  bizTypeList: `${BASE}/bizTypeList`,
  /** Whether this server renders PDFs, and why not (the print menus say so before a click). */
  pdfStatus: `${BASE}/pdfStatus`,
} as const;

/** The answer of PRINT_PATHS.pdfStatus. */
export interface PdfStatus {
  available: boolean;
  /** Why PDFs are unavailable (the preview still prints through the browser). */
  reason: string | null;
}

export const PRINT_MENU = 'ft-print';

/** What can be printed: each business type is a document of one screen. */
export const BIZ_TYPES = [
  'contract',
  'handover',
  'prepayment',
  'loan',
  'repayment',
  'writeOff',
  'credit',
  'statement',
  'classAdjust',
  'assignNotice',
  'buyback',
] as const;
export type BizType = (typeof BIZ_TYPES)[number];
export const BIZ_TYPE_LABELS: Record<BizType, string> = {
  contract: '保理合同',
  handover: '资料交接单',
  prepayment: '前期款缴款通知书',
  loan: '放款通知书',
  repayment: '还款通知书',
  writeOff: '核销确认书',
  credit: '授信审批表',
  statement: '客户对账单',
  classAdjust: '分类调整单',
  assignNotice: '应收账款转让通知书',
  buyback: '回购通知书',
};
/** The screen (menu code) whose documents a type prints; its 打印 button allows printing. */
export const BIZ_TYPE_MENUS: Record<BizType, string> = {
  contract: 'ft-contract-info',
  handover: 'ft-contract-handover',
  prepayment: 'ft-pa-mgr',
  loan: 'ft-loan',
  repayment: 'ft-contract-info',
  writeOff: 'ft-paid',
  credit: 'ft-credit-info',
  statement: 'ft-ledger-statement',
  classAdjust: 'ft-classification',
  assignNotice: 'ft-contract-info',
  buyback: 'ft-buyback',
};
/** The name of the document code each type is printed from, as the screens call it. */
export const BIZ_TYPE_DOC_LABELS: Record<BizType, string> = {
  contract: '合同编号',
  handover: '交接单编号',
  prepayment: '前期款编号',
  loan: '放款单编号',
  repayment: '合同编号',
  writeOff: '核销编号',
  credit: '授信编号',
  statement: '客户编号',
  classAdjust: '分类调整单编号',
  assignNotice: '通知书编号',
  buyback: '回购单编号',
};

export const TEMPLATE_STATES = ['enabled', 'disabled'] as const;
export type TemplateState = (typeof TEMPLATE_STATES)[number];
export const TEMPLATE_STATE_LABELS: Record<TemplateState, string> = { enabled: '启用', disabled: '停用' };

/** Templates are HTML fragments of at most this many characters. */
export const MAX_TEMPLATE_LENGTH = 200_000;

// ---------------------------------------------------------------------------------------------
// The placeholder catalogue

/** money prints as 1,234.50 and adds `<key>Capitals` (大写金额); rate prints as a percentage. */
export type FieldKind = 'text' | 'money' | 'date' | 'rate' | 'number';

export interface PrintField {
  key: string;
  label: string;
  kind: FieldKind;
  /** What the editor's preview shows for it. */
  sample: string;
}

export interface PrintList {
  key: string;
  label: string;
  fields: readonly PrintField[];
}

export interface PrintCatalogue {
  bizType: BizType;
  label: string;
  fields: readonly PrintField[];
  lists: readonly PrintList[];
}

const f = (key: string, label: string, kind: FieldKind, sample: string): PrintField => ({
  key,
  label,
  kind,
  sample,
});

/**
 * Our company as 参数设置 names it (docs/operations.md "Settings an administrator changes"), on
 * every document: the server adds these to each document's data. The seal is a data: URL, for
 * `{{#companySeal}}<img src="{{companySeal}}" />{{/companySeal}}`.
 */
export const COMPANY_FIELDS: readonly PrintField[] = [
  f('companyName', '本公司名称', 'text', '华信商业保理有限公司'),
  f('companyAddress', '本公司地址', 'text', '上海市浦东新区世纪大道100号'),
  f('companyRegNo', '本公司统一社会信用代码', 'text', '91310115MA1K3YJ12X'),
  f('companySeal', '本公司公章（图片）', 'text', ''),
  f('companySignatory', '本公司签字人（法定代表人或授权代表）', 'text', '张伟'),
];
export type CompanyPrintData = Record<
  'companyName' | 'companyAddress' | 'companyRegNo' | 'companySeal' | 'companySignatory',
  string | null
>;

const COMMON: readonly PrintField[] = [
  f('printDate', '打印日期', 'text', '2026年11月23日'),
  ...COMPANY_FIELDS,
];

const CONTRACT_FIELDS: readonly PrintField[] = [
  f('contractNo', '合同号', 'text', 'BL-2026-0001'),
  f('contBizCode', '合同编号', 'text', '000000000001'),
  f('custName', '客户名称（卖方）', 'text', '上海华东机电设备有限公司'),
  f('coreCompName', '核心企业', 'text', '中国宏达建设集团有限公司'),
  f('product', '产品', 'text', '保理'),
  f('recourse', '追索类型', 'text', '有追索权'),
  f('disclosure', '公开类型', 'text', '明保理'),
  f('financingAmount', '融资金额', 'money', '1000000.00'),
  f('financingRatio', '融资比例', 'rate', '0.8'),
  f('receivablesAmount', '应收账款金额', 'money', '1250000.00'),
  f('marginRatio', '保证金比例', 'rate', '0.05'),
  f('currency', '币种', 'text', '人民币'),
  f('startDate', '起始日', 'date', '2026-11-23'),
  f('maturityDate', '到期日', 'date', '2027-11-23'),
  f('ruleName', '计息规则', 'text', '年化8%按月付息到期还本'),
  f('annualRate', '年利率', 'rate', '0.08'),
  f('bankName', '还款账户名', 'text', '上海宏达商业保理有限公司'),
  f('bankAccountNo', '还款账号', 'text', '6222 0210 0112 3456 789'),
  f('managerName', '业务经理', 'text', '王敏'),
  f('totalInterest', '利息合计', 'money', '80000.00'),
  f('totalFee', '费用合计', 'money', '0.00'),
  f('asOf', '数字截至日（营业日）', 'date', '2026-11-23'),
];

const PLAN_LIST: PrintList = {
  key: 'plan',
  label: '还款计划',
  fields: [
    f('period', '期次', 'number', '1'),
    f('startDate', '起息日', 'date', '2026-11-23'),
    f('dueDate', '还款日', 'date', '2026-12-23'),
    f('days', '天数', 'number', '30'),
    f('principal', '本金', 'money', '0.00'),
    f('interest', '利息', 'money', '6666.67'),
    f('fee', '费用', 'money', '0.00'),
    f('total', '应还合计（本金+利息+费用）', 'money', '6666.67'),
    f('penalty', '罚息（截至数字截至日）', 'money', '0.00'),
    f('overdueDays', '逾期天数', 'number', '0'),
  ],
};

const RECEIVABLES_LIST: PrintList = {
  key: 'receivables',
  label: '应收账款',
  fields: [
    f('invoiceNo', '发票号', 'text', '04411234'),
    f('debtorName', '债务人', 'text', '中国宏达建设集团有限公司'),
    f('invoiceDate', '开票日期', 'date', '2026-10-08'),
    f('dueDate', '到期日', 'date', '2027-04-08'),
    f('amount', '金额', 'money', '1250000.00'),
  ],
};

export const PRINT_CATALOGUES: Record<BizType, PrintCatalogue> = {
  contract: {
    bizType: 'contract',
    label: BIZ_TYPE_LABELS.contract,
    fields: [...COMMON, ...CONTRACT_FIELDS],
    lists: [PLAN_LIST, RECEIVABLES_LIST],
  },
  handover: {
    bizType: 'handover',
    label: BIZ_TYPE_LABELS.handover,
    fields: [
      ...COMMON,
      f('bizCode', '交接单编号', 'text', '000000000003'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('handoverName', '移交人', 'text', '王敏'),
      f('receiverName', '接收人', 'text', '李静'),
      f('handoverDate', '交接日期', 'date', '2026-11-23'),
      f('remark', '备注', 'text', '原件已核对'),
    ],
    lists: [
      {
        key: 'items',
        label: '交接资料',
        fields: [
          f('index', '序号', 'number', '1'),
          f('docName', '资料名称', 'text', '商务合同'),
          f('kind', '原件/复印件', 'text', '原件'),
          f('copies', '份数', 'number', '2'),
          f('pages', '页数', 'number', '12'),
          f('remark', '资料备注', 'text', ''),
        ],
      },
    ],
  },
  prepayment: {
    bizType: 'prepayment',
    label: BIZ_TYPE_LABELS.prepayment,
    fields: [
      ...COMMON,
      f('preamtBizCode', '前期款编号', 'text', '000000000005'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('payerName', '付款人', 'text', '上海华东机电设备有限公司'),
      f('method', '收取方式', 'text', '客户转账'),
      f('receiveDate', '收取日期', 'date', '2026-11-25'),
      f('amount', '金额', 'money', '50000.00'),
      f('remark', '备注', 'text', ''),
    ],
    lists: [
      {
        key: 'lines',
        label: '收取明细',
        fields: [
          f('kind', '费用类型', 'text', '保证金'),
          f('dueDate', '应收日期', 'date', '2026-11-23'),
          f('amount', '应收金额', 'money', '50000.00'),
          f('lineAmount', '本次收取', 'money', '50000.00'),
        ],
      },
    ],
  },
  loan: {
    bizType: 'loan',
    label: BIZ_TYPE_LABELS.loan,
    fields: [
      ...COMMON,
      f('loanBizCode', '放款单编号', 'text', '000000000007'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('valueDate', '放款日', 'date', '2026-11-25'),
      f('financingAmount', '融资金额', 'money', '1000000.00'),
      f('prepaidAmount', '前期款已收合计', 'money', '0.00'),
      f('deductedAmount', '扣收合计', 'money', '50000.00'),
      f('returnedAmount', '退还多收合计', 'money', '0.00'),
      f('netAmount', '实付金额（融资金额 − 扣收合计 + 退还多收合计）', 'money', '950000.00'),
      f('payBankName', '付款账户名称', 'text', '本公司'),
      f('payAccountNo', '付款账号', 'text', '1001244319025801234'),
      f('payeeBankName', '收款账户名称', 'text', '上海华东机电设备有限公司'),
      f('payeeAccountNo', '收款账号', 'text', '6222021001000000'),
      f('serialNo', '银行流水号', 'text', 'FK20261125001'),
      f('state', '审核状态', 'text', '已审核'),
      f('redMark', '冲红标记', 'text', ''),
      f('remark', '备注', 'text', ''),
    ],
    lists: [
      {
        key: 'lines',
        label: '前期款项',
        fields: [
          f('kind', '款项', 'text', '保证金'),
          f('dueAmount', '合同应收', 'money', '50000.00'),
          f('amount', '本次应收', 'money', '50000.00'),
          f('prepaid', '前期款已收', 'money', '0.00'),
          f('deducted', '本次扣收', 'money', '50000.00'),
          f('returned', '退还多收', 'money', '0.00'),
        ],
      },
    ],
  },
  repayment: {
    bizType: 'repayment',
    label: BIZ_TYPE_LABELS.repayment,
    fields: [
      ...COMMON,
      ...CONTRACT_FIELDS,
      f('nextDueDate', '本期还款日', 'date', '2026-12-23'),
      f('nextDueAmount', '本期应还', 'money', '6666.67'),
      f('outstandingTotal', '未还合计（含罚息）', 'money', '1080000.00'),
      f('penaltyTotal', '未还罚息合计', 'money', '0.00'),
      f('nextOverdueDays', '本期逾期天数', 'number', '0'),
      f('overdueNote', '逾期提示（如：已逾期5天）', 'text', ''),
    ],
    lists: [
      {
        key: 'openItems',
        label: '未还期次',
        fields: [
          ...PLAN_LIST.fields,
          f('paid', '已还（含罚息）', 'money', '0.00'),
          f('outstanding', '未还（含罚息）', 'money', '6666.67'),
        ],
      },
    ],
  },
  statement: {
    bizType: 'statement',
    label: BIZ_TYPE_LABELS.statement,
    fields: [
      ...COMMON,
      f('custCode', '客户编号', 'text', '000000000002'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('contractNo', '合同号（单一合同时）', 'text', ''),
      f('dateFrom', '期间开始', 'date', '2026-11-01'),
      f('dateTo', '期间结束', 'date', '2026-11-30'),
      f('opening', '期初本金余额', 'money', '1000000.00'),
      f('disbursed', '本期放款', 'money', '0.00'),
      f('received', '本期回款', 'money', '206666.67'),
      f('principal', '本期收回本金', 'money', '200000.00'),
      f('interest', '本期收回利息', 'money', '6666.67'),
      f('fee', '本期收回费用', 'money', '0.00'),
      f('penalty', '本期收回罚息', 'money', '0.00'),
      f('closing', '期末本金余额', 'money', '800000.00'),
    ],
    lists: [
      {
        key: 'lines',
        label: '往来明细',
        fields: [
          f('date', '日期', 'date', '2026-11-23'),
          f('kind', '业务类型', 'text', '回款核销'),
          f('docCode', '单据编号', 'text', '000000000007'),
          f('contractNo', '合同号', 'text', 'BL-2026-0001'),
          f('disbursed', '放款本金', 'money', '0.00'),
          f('received', '回款金额', 'money', '68888.89'),
          f('principal', '本金', 'money', '66666.67'),
          f('interest', '利息', 'money', '2222.22'),
          f('fee', '费用', 'money', '0.00'),
          f('penalty', '罚息', 'money', '0.00'),
          f('balance', '本金余额', 'money', '933333.33'),
          f('remark', '备注', 'text', ''),
        ],
      },
    ],
  },
  writeOff: {
    bizType: 'writeOff',
    label: BIZ_TYPE_LABELS.writeOff,
    fields: [
      ...COMMON,
      f('paidBizCode', '核销编号', 'text', '000000000007'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('payerName', '付款人', 'text', '中国宏达建设集团有限公司'),
      f('fiidBizCode', '来款编号', 'text', '000000000006'),
      f('serialNo', '银行流水号', 'text', 'DEMO-BS-0001'),
      f('valueDate', '来款日期', 'date', '2026-11-20'),
      f('incomeAmount', '来款金额', 'money', '200000.00'),
      f('paidDate', '核销日期', 'date', '2026-11-23'),
      f('kind', '核销类型', 'text', '正常核销'),
      f('amount', '核销金额', 'money', '6666.67'),
      f('principal', '其中本金', 'money', '0.00'),
      f('remark', '备注', 'text', ''),
    ],
    lists: [
      {
        key: 'lines',
        label: '核销明细',
        fields: [
          f('period', '期次', 'number', '1'),
          f('dueDate', '还款日', 'date', '2026-12-23'),
          f('component', '科目', 'text', '利息'),
          f('amount', '金额', 'money', '6666.67'),
        ],
      },
    ],
  },
  credit: {
    bizType: 'credit',
    label: BIZ_TYPE_LABELS.credit,
    fields: [
      ...COMMON,
      f('bizCode', '授信编号', 'text', '000000000002'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('limitAmount', '授信额度', 'money', '5000000.00'),
      f('currency', '币种', 'text', '人民币'),
      f('cycle', '额度类型', 'text', '循环'),
      f('product', '产品', 'text', '保理'),
      f('startDate', '起始日', 'date', '2026-01-01'),
      f('endDate', '到期日', 'date', '2026-12-31'),
      f('state', '审核状态', 'text', '已审核'),
      f('remark', '备注', 'text', ''),
    ],
    lists: [],
  },
  classAdjust: {
    bizType: 'classAdjust',
    label: BIZ_TYPE_LABELS.classAdjust,
    fields: [
      ...COMMON,
      f('adjBizCode', '分类调整单编号', 'text', '000000000012'),
      f('contBizCode', '合同编号', 'text', '000000000001'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('custName', '客户名称', 'text', '上海华东机电设备有限公司'),
      f('overdueDays', '逾期天数', 'number', '95'),
      f('proposedClass', '建议分类', 'text', '次级'),
      f('fromClass', '调整前分类', 'text', '次级'),
      f('toClass', '调整后分类', 'text', '关注'),
      f('reason', '调整原因', 'text', '买方已书面确认付款，抵押物充足'),
      f('state', '审核状态', 'text', '已审核'),
      f('effectiveDate', '生效日期', 'date', '2026-11-23'),
      f('makerName', '经办人', 'text', '李经办'),
      f('madeAt', '提交时间', 'text', '2026-11-23 10:15'),
      f('checkerName', '复核人', 'text', '王复核'),
      f('checkedAt', '复核时间', 'text', '2026-11-23 14:30'),
      f('checkComment', '复核意见', 'text', '同意'),
    ],
    lists: [],
  },
  assignNotice: {
    bizType: 'assignNotice',
    label: BIZ_TYPE_LABELS.assignNotice,
    fields: [
      ...COMMON,
      f('noticeBizCode', '通知书编号', 'text', '000000000015'),
      f('debtorName', '债务人', 'text', '中国宏达建设集团有限公司'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('contBizCode', '合同编号', 'text', '000000000001'),
      f('custName', '客户名称（转让人）', 'text', '上海华东机电设备有限公司'),
      f('recourse', '追索类型', 'text', '有追索权'),
      f('totalAmount', '转让应收账款合计', 'money', '1250000.00'),
      f('bankName', '收款账户名', 'text', '上海宏达商业保理有限公司'),
      f('bankAccountNo', '收款账号', 'text', '6222 0210 0112 3456 789'),
      f('status', '确认状态', 'text', '待确认'),
      f('confirmDate', '确认日期', 'date', ''),
      f('confirmedBy', '确认人', 'text', ''),
    ],
    lists: [
      {
        key: 'receivables',
        label: '转让应收账款',
        fields: [
          f('invoiceNo', '发票号', 'text', '04411234'),
          f('invoiceDate', '开票日期', 'date', '2026-10-08'),
          f('dueDate', '到期日', 'date', '2027-04-08'),
          f('amount', '金额', 'money', '1250000.00'),
        ],
      },
    ],
  },
  buyback: {
    bizType: 'buyback',
    label: BIZ_TYPE_LABELS.buyback,
    fields: [
      ...COMMON,
      f('buybackBizCode', '回购单编号', 'text', '000000000015'),
      f('contractNo', '合同号', 'text', 'BL-2026-0001'),
      f('custName', '客户名称（回购方）', 'text', '上海华东机电设备有限公司'),
      f('buybackDate', '回购日期', 'date', '2026-11-23'),
      f('principal', '未还本金', 'money', '1000000.00'),
      f('interest', '利息（计至回购日）', 'money', '12000.00'),
      f('fee', '费用', 'money', '0.00'),
      f('penalty', '罚息', 'money', '3500.00'),
      f('amount', '回购金额', 'money', '1015500.00'),
      f('settled', '已收回购款', 'money', '0.00'),
      f('open', '未收回购款', 'money', '1015500.00'),
      f('state', '审核状态', 'text', '已审核'),
      f('remark', '备注', 'text', ''),
    ],
    lists: [
      {
        key: 'lines',
        label: '回购明细',
        fields: [
          f('period', '期次', 'number', '1'),
          f('dueDate', '还款日', 'date', '2026-10-23'),
          f('component', '科目', 'text', '本金'),
          f('amount', '金额', 'money', '1000000.00'),
        ],
      },
    ],
  },
};

/** The fields a template can name, money fields with their 大写 twin. */
export function expandFields(fields: readonly PrintField[]): PrintField[] {
  return fields.flatMap((field) =>
    field.kind === 'money'
      ? [
          field,
          { key: `${field.key}Capitals`, label: `${field.label}（大写）`, kind: 'text' as const, sample: '' },
        ]
      : [field],
  );
}

export function vocabularyOf(bizType: BizType): TemplateVocabulary {
  const catalogue = PRINT_CATALOGUES[bizType];
  return {
    fields: new Set(expandFields(catalogue.fields).map((x) => x.key)),
    lists: new Map(catalogue.lists.map((l) => [l.key, new Set(expandFields(l.fields).map((x) => x.key))])),
  };
}

// ---------------------------------------------------------------------------------------------
// Calls

export const templateSaveSchema = z.object({
  bizCode: optionalCode('模板编号'),
  version: version.optional(),
  name: text('模板名称', 60),
  bizType: oneOf('业务类型', BIZ_TYPES),
  /** A template for one core enterprise's documents; none = for every document of the type. */
  coreCompCode: optionalCode('核心企业'),
  content: z
    .string({
      // Absent says what the form says of an empty field (the browser checks with this schema).
      error: (i) => (i.input === undefined || i.input === null ? '模板内容不能为空' : '模板内容格式不正确'),
    })
    .trim()
    .min(1, '模板内容不能为空')
    .max(MAX_TEMPLATE_LENGTH, `模板内容不能超过${MAX_TEMPLATE_LENGTH}个字符`),
  remark: optionalText('备注', 500, { multiline: true }),
});
export type TemplateSave = z.input<typeof templateSaveSchema>;

export const templateListSchema = listSchema(
  {
    name: optionalText('模板名称', 60),
    bizType: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      oneOf('业务类型', BIZ_TYPES).optional(),
    ),
    state: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      oneOf('状态', TEMPLATE_STATES).optional(),
    ),
  },
  ['bizCode', 'name', 'bizType', 'updatedAt'],
);

export const templateCodeQuery = z.strictObject({ bizCode: code('模板编号') });
export const bizTypeQuery = z.strictObject({ bizType: oneOf('业务类型', BIZ_TYPES) });

/**
 * Print a document: its type and code; the template is the one named, or else the enabled
 * template of the type for the document's core enterprise (or the general one). `content` previews
 * an unsaved template body (template designers only).
 */
export const printDocSchema = z.object({
  bizType: oneOf('业务类型', BIZ_TYPES),
  docCode: code('单据编号'),
  tplBizCode: optionalCode('模板编号'),
  content: z
    .string({ error: '模板内容格式不正确' })
    .max(MAX_TEMPLATE_LENGTH, `模板内容不能超过${MAX_TEMPLATE_LENGTH}个字符`)
    .optional(),
  /** PDF only: `attachment` downloads, `inline` (default) opens in the viewer. */
  disposition: z.enum(['inline', 'attachment'], { error: '打开方式不正确' }).optional(),
  /** 客户对账单 only: its period (default: the business date's month so far) and one contract. */
  dateFrom: optionalDate('开始日期'),
  dateTo: optionalDate('结束日期'),
  contBizCode: optionalCode('合同'),
});
export type PrintDoc = z.input<typeof printDocSchema>;

/** A contract form not yet saved, previewed with a contract template. */
export const printContractDraftSchema = z.object({
  tplBizCode: optionalCode('模板编号'),
  contract: infoSaveSchema,
});

export interface TemplateRow {
  bizCode: string;
  version: number;
  name: string;
  bizType: BizType;
  coreCompCode: string | null;
  coreCompName: string | null;
  state: TemplateState;
  remark: string | null;
  updatedAt: string;
}

export interface TemplateView extends TemplateRow {
  content: string;
}
