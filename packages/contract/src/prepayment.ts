import { z } from 'zod';
import {
  code,
  date,
  int,
  money,
  moneyRange,
  optionalCode,
  optionalDate,
  optionalOneOf,
  optionalText,
  version,
} from './fields';
import { listSchema } from './list';
import { DOC_STATES, submitFlag, type DocState } from './workflow';
import type { DueKind } from './contract';

/**
 * /ft/api/pa/ without the /api prefix: prepayments (前期款), the up-front dues of a
 * contract (margin 保证金, 前置 interest and fee) collected before financing (docs/money-lifecycle.md).
 */
const BASE = '/ft/api/pa';
export const PA_PATHS = {
  list: `${BASE}/list`,
  /** The list's filters and sort as a streamed xlsx (every matching row). */
  listExport: `${BASE}/listExport`,
  saveBaseInfo: `${BASE}/saveBaseInfo`,
  /** ?preamtBizCode */
  viewBaseInfo: `${BASE}/viewBaseInfo`,
  /** ?preamtBizCode */
  deleteInfo: `${BASE}/deleteInfo`,
  audit: `${BASE}/audit`,
  unAudit: `${BASE}/unAudit`,
  /** ?contBizCode: a new prepayment prefilled from the contract's open up-front dues. */
  initBase: `${BASE}/initBase`,
  /** ?contBizCode: the contract's payers. */
  getPayerInfo: `${BASE}/getPayerInfo`,
} as const;

/**
 * How a prepayment's money came: only cash into one of our accounts may be entered
 * (docs/money-lifecycle.md "A prepayment is cash"). 'deduct' is read on documents made before
 * that rule and refused on every new save and approval.
 */
export const PA_CASH_METHODS = ['transfer'] as const;
export const PA_METHODS = [...PA_CASH_METHODS, 'deduct'] as const;
export type PaMethod = (typeof PA_METHODS)[number];
export const PA_METHOD_LABELS: Record<PaMethod, string> = {
  transfer: '客户转账',
  deduct: '放款时扣收（旧）',
};
export const isCashMethod = (m: string): boolean => (PA_CASH_METHODS as readonly string[]).includes(m);
/** Why a method that moves no cash is refused (save and approval). */
export const NOT_CASH_MESSAGE =
  '收取方式只能是客户转账等实际到账的款项；放款时扣收由放款单完成，不能做前期款';

export const preamtQuery = z.object({ preamtBizCode: code('前期款编号') });
export const paContQuery = z.object({ contBizCode: code('合同编号') });

export const paLineSchema = z.object({
  dueId: int('应收费用', 1, Number.MAX_SAFE_INTEGER),
  amount: money('本次收取金额', { min: 'positive' }),
});

export const paSaveSchema = z.object({
  preamtBizCode: optionalCode('前期款编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  method: z.enum(PA_CASH_METHODS, {
    error: (iss) =>
      iss.input === undefined || iss.input === null || iss.input === ''
        ? '收取方式不能为空'
        : PA_METHODS.includes(iss.input as PaMethod)
          ? NOT_CASH_MESSAGE
          : '收取方式取值不正确',
  }),
  /** Our receiving account. */
  bankBizCode: code('收款账户'),
  receiveDate: date('收取日期'),
  payerName: optionalText('付款人', 100),
  remark: optionalText('备注', 500, { multiline: true }),
  lines: z
    .array(paLineSchema, { error: '收取明细格式不正确' })
    .min(1, '请填写收取明细')
    .max(50, '收取明细过多'),
  ...submitFlag,
});
export type PaSave = z.input<typeof paSaveSchema>;

export const PA_EXPORT_FILE_NAME = '前期款明细.xlsx';

export const paListSchema = listSchema(
  {
    preamtBizCode: optionalCode('前期款编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    receiveDateFrom: optionalDate('收取日期起'),
    receiveDateTo: optionalDate('收取日期止'),
    ...moneyRange('amount', '收取金额'),
  },
  ['receiveDate', 'amount', 'updatedAt'],
);

export interface PaDue {
  dueId: number;
  kind: DueKind;
  amount: string;
  receivedAmount: string;
  openAmount: string;
  dueDate: string;
}

export interface PaInit {
  contBizCode: string;
  contractNo: string;
  custName: string;
  bankBizCode: string | null;
  receiveDate: string;
  payerName: string;
  dues: PaDue[];
}

export interface PaRow {
  preamtBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  method: PaMethod;
  receiveDate: string;
  amount: string;
  state: DocState;
  updatedAt: string;
}

export interface PaView extends PaRow {
  version: number;
  bankBizCode: string;
  payerName: string | null;
  remark: string | null;
  lines: (PaDue & { lineAmount: string })[];
}
