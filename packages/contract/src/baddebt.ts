import { z } from 'zod';
import { code, date, optionalCode, optionalDate, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { DOC_STATES, submitFlag, type DocState } from './workflow';
import type { PaidLineView } from './accounts';

/**
 * 核销坏账 (bad-debt write-off, docs/accounting.md "Bad-debt write-off"): a contract classified
 * 损失 with principal outstanding is written off by a document of its own, made by one person and
 * approved by another. Approval closes the plan, marks the contract 已核销 and posts the voucher
 * 坏账准备 (信用减值损失 for any shortfall) against 应收保理款. Paths without the /api prefix; the
 * screen's menu code is `ft-bad-debt`.
 */
const BASE = '/ft/api/badDebt';
export const BAD_DEBT_PATHS = {
  /** Body badDebtListSchema. */
  list: `${BASE}/list`,
  /** Body as list: the list as xlsx (button ft-bad-debt:export). */
  listExport: `${BASE}/list/export`,
  /** ?contBizCode&writeOffDate: what a new 核销坏账 would write off on that date. */
  quote: `${BASE}/quote`,
  /** Body badDebtSaveSchema. */
  saveBaseInfo: `${BASE}/saveBaseInfo`,
  /** ?badDebtBizCode */
  viewBaseInfo: `${BASE}/viewBaseInfo`,
  /** ?badDebtBizCode */
  deleteInfo: `${BASE}/deleteInfo`,
  /** ?badDebtBizCode, body auditBody */
  audit: `${BASE}/audit`,
  unAudit: `${BASE}/unAudit`,
  /** ?badDebtBizCode, body badDebtRedSchema: 冲红 of an approved write-off (button ft-bad-debt:rushRed). */
  rushRed: `${BASE}/rushRed`,
} as const;

export const BAD_DEBT_MENU = 'ft-bad-debt';
export const BAD_DEBT_EXPORT_FILE_NAME = '核销坏账明细.xlsx';

export const BAD_DEBT_RED_STATES = ['none', 'reversed'] as const;
export type BadDebtRedState = (typeof BAD_DEBT_RED_STATES)[number];
export const BAD_DEBT_RED_LABELS: Record<BadDebtRedState, string> = { none: '正常', reversed: '已冲红' };

export const badDebtQuery = z.object({ badDebtBizCode: code('核销坏账编号') });
export const badDebtQuoteQuery = z.object({ contBizCode: code('合同编号'), writeOffDate: date('核销日期') });
export const badDebtRedSchema = z.object({ reason: text('冲红原因', 200) });

export const badDebtSaveSchema = z.object({
  badDebtBizCode: optionalCode('核销坏账编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  writeOffDate: date('核销日期'),
  remark: optionalText('核销原因', 500, { multiline: true }),
  ...submitFlag,
});
export type BadDebtSave = z.input<typeof badDebtSaveSchema>;

export const badDebtListSchema = listSchema(
  {
    badDebtBizCode: optionalCode('核销坏账编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    redState: optionalOneOf('冲红状态', BAD_DEBT_RED_STATES),
    writeOffDateFrom: optionalDate('核销日期起'),
    writeOffDateTo: optionalDate('核销日期止'),
  },
  ['writeOffDate', 'amount', 'updatedAt'],
);

/** What a write-off on a date closes: each part, and the plan lines. */
export interface BadDebtQuote {
  contBizCode: string;
  contractNo: string;
  custName: string;
  writeOffDate: string;
  /** Outstanding principal (应收保理款). */
  principal: string;
  /** Interest receivable to the date (off the books: never income, docs/accounting.md). */
  interest: string;
  fee: string;
  penalty: string;
  amount: string;
  /** 坏账准备 the contract holds on the date, and what of the principal it does not cover (信用减值损失). */
  reserveHeld: string;
  reserveUsed: string;
  lossCharged: string;
  lines: PaidLineView[];
}

export interface BadDebtRow {
  badDebtBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  writeOffDate: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  amount: string;
  state: DocState;
  redState: BadDebtRedState;
  updatedAt: string;
}

export interface BadDebtView extends BadDebtRow {
  version: number;
  remark: string | null;
  redReason: string | null;
  /** After approval, what it posted; before, what approval would post as the books stand now. */
  reserveHeld: string;
  reserveUsed: string;
  lossCharged: string;
  /** The seller's credit released (after approval). */
  released: string;
  /** The closing write-off of the approval (null before). */
  paidBizCode: string | null;
  lines: PaidLineView[];
}
