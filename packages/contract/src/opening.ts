/**
 * 期初导入 (opening balances, docs/money-lifecycle.md "Opening balances"): contracts already in
 * force when the office starts using the portal, brought in from one xlsx with two sheets. The
 * server reads the sheets by these exact headers; the template carries them.
 */

/** Sheet 1: one row per contract. `*` marks a required column (the template writes it). */
export const OPENING_CONTRACT_SHEET = '合同';
export const OPENING_CONTRACT_COLUMNS = [
  { key: 'contractNo', header: '合同号', required: true },
  { key: 'custCode', header: '客户编号', required: true },
  { key: 'platCredBizCode', header: '平台授信编号', required: true },
  { key: 'lineCode', header: '占用额度编号', required: true },
  { key: 'recourse', header: '追索类型', required: true },
  { key: 'disclosure', header: '公开类型', required: true },
  { key: 'product', header: '产品', required: true },
  { key: 'financingRatio', header: '融资比例', required: true },
  { key: 'financingAmount', header: '融资金额', required: true },
  { key: 'marginRatio', header: '保证金比例', required: false },
  { key: 'startDate', header: '起始日', required: true },
  { key: 'maturityDate', header: '到期日', required: true },
  { key: 'ruleBizCode', header: '计息规则编号', required: true },
  { key: 'bankBizCode', header: '还款账户编号', required: true },
  { key: 'debtorName', header: '债务人名称', required: true },
  { key: 'debtorUscc', header: '债务人统一社会信用代码', required: false },
  { key: 'invoiceCode', header: '发票代码', required: true },
  { key: 'invoiceNo', header: '发票号码', required: true },
  { key: 'invoiceDate', header: '开票日期', required: true },
  { key: 'receivableAmount', header: '应收账款金额', required: true },
  { key: 'receivableDueDate', header: '应收账款到期日', required: true },
  { key: 'loanDate', header: '放款日', required: true },
  { key: 'loanAmount', header: '实际放款金额', required: true },
  { key: 'marginReceived', header: '已收保证金', required: false },
  { key: 'upfrontInterestReceived', header: '已收前置利息', required: false },
  { key: 'upfrontFeeReceived', header: '已收前置手续费', required: false },
  { key: 'remark', header: '备注', required: false },
] as const;
export type OpeningContractKey = (typeof OPENING_CONTRACT_COLUMNS)[number]['key'];

/** Sheet 2: what each plan item had been repaid before the import, by contract and period. */
export const OPENING_PAID_SHEET = '已还明细';
export const OPENING_PAID_COLUMNS = [
  { key: 'contractNo', header: '合同号', required: true },
  { key: 'period', header: '期次', required: true },
  { key: 'principalPaid', header: '已还本金', required: false },
  { key: 'interestPaid', header: '已还利息', required: false },
  { key: 'feePaid', header: '已还费用', required: false },
] as const;
export type OpeningPaidKey = (typeof OPENING_PAID_COLUMNS)[number]['key'];

export const OPENING_TEMPLATE_FILE_NAME = '期初合同导入模板.xlsx';
export const OPENING_MAX_CONTRACTS = 500;
export const OPENING_MAX_PAID_ROWS = 20_000;

/** How the import treats rows with errors: refuse the whole file, or import the valid rows only. */
export const OPENING_MODES = ['all', 'valid'] as const;
export type OpeningMode = (typeof OPENING_MODES)[number];

/** One contract row of the file as checked: its sheet row, the cells as read, and its errors. */
export interface OpeningRow {
  row: number;
  item: Partial<Record<OpeningContractKey, string>>;
  errors: string[];
  /** The figures the row would post, when it passes. */
  figures?: {
    principalOutstanding: string;
    principalPaid: string;
    interestPaid: string;
    feePaid: string;
    items: number;
  };
  /** The contract's code once imported (OpeningResult only). */
  bizCode?: string;
}

export interface OpeningPreview {
  ok: boolean;
  rows: OpeningRow[];
  /** Σ outstanding principal of the rows that pass: the 应收保理款 the import would open. */
  principalOutstanding: string;
}

export interface OpeningResult extends OpeningPreview {
  /** The codes of the contracts imported, in row order. */
  imported: string[];
}
