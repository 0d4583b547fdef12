import { z } from 'zod';
import {
  code,
  date,
  money,
  optionalCode,
  optionalDate,
  optionalOneOf,
  optionalText,
  text,
  version,
} from './fields';
import { listSchema } from './list';
import { DOC_STATES, submitFlag, type DocState } from './workflow';
import type { PaidLineView } from './accounts';

/**
 * 回购 (buy-back under recourse, docs/buyback.md): when the debtor does not pay, the seller of a
 * with-recourse (有追索) contract buys the outstanding receivable back. The 回购单 fixes the
 * amount on its date; approval closes the plan's open items into the seller's buy-back receivable;
 * 回购款核销 spends incomings on it. Paths without the /api prefix; the screen's menu code is
 * `ft-buyback` (its buttons guard both documents).
 */
const BASE = '/ft/api/buyback';
export const BUYBACK_PATHS = {
  /** Body buybackListSchema. */
  list: `${BASE}/list`,
  /** Body as list: the list as xlsx (button ft-buyback:export). */
  listExport: `${BASE}/list/export`,
  /** ?contBizCode&buybackDate: the quote on that date (what a new 回购单 would fix). */
  quote: `${BASE}/quote`,
  /** Body buybackSaveSchema. */
  saveBaseInfo: `${BASE}/saveBaseInfo`,
  /** ?buybackBizCode */
  viewBaseInfo: `${BASE}/viewBaseInfo`,
  /** ?buybackBizCode */
  deleteInfo: `${BASE}/deleteInfo`,
  /** ?buybackBizCode, body auditBody */
  audit: `${BASE}/audit`,
  unAudit: `${BASE}/unAudit`,
  /**
   * ?buybackBizCode, body buybackRedSchema: 冲红 of an approved buy-back nothing was paid on —
   * the plan's items reopened, the voucher mirrored (button ft-buyback:rushRed).
   */
  rushRed: `${BASE}/rushRed`,
  /** Body buybackSettleSchema: a 回购款核销 (draft or submitted). */
  settleSave: `${BASE}/settle/saveBaseInfo`,
  /** ?settleBizCode */
  settleView: `${BASE}/settle/viewBaseInfo`,
  /** ?settleBizCode */
  settleDelete: `${BASE}/settle/deleteInfo`,
  /** ?settleBizCode, body auditBody (buttons ft-buyback:audit / unAudit). */
  settleAudit: `${BASE}/settle/audit`,
  settleUnAudit: `${BASE}/settle/unAudit`,
} as const;

export const BUYBACK_MENU = 'ft-buyback';
export const BUYBACK_EXPORT_FILE_NAME = '回购单明细.xlsx';

export const BUYBACK_RED_STATES = ['none', 'reversed'] as const;
export type BuybackRedState = (typeof BUYBACK_RED_STATES)[number];
export const BUYBACK_RED_LABELS: Record<BuybackRedState, string> = { none: '正常', reversed: '已冲红' };

export const buybackQuery = z.object({ buybackBizCode: code('回购单编号') });
export const buybackQuoteQuery = z.object({ contBizCode: code('合同编号'), buybackDate: date('回购日期') });
export const buybackSettleQuery = z.object({ settleBizCode: code('回购款核销编号') });
export const buybackRedSchema = z.object({ reason: text('冲红原因', 200) });

export const buybackSaveSchema = z.object({
  buybackBizCode: optionalCode('回购单编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  buybackDate: date('回购日期'),
  remark: optionalText('备注', 500, { multiline: true }),
  ...submitFlag,
});
export type BuybackSave = z.input<typeof buybackSaveSchema>;

export const buybackSettleSchema = z.object({
  settleBizCode: optionalCode('回购款核销编号'),
  version: version.optional(),
  buybackBizCode: code('回购单编号'),
  fiidBizCode: code('来款编号'),
  settleDate: date('核销日期'),
  amount: money('核销金额', { min: 'positive' }),
  remark: optionalText('备注', 500, { multiline: true }),
  ...submitFlag,
});
export type BuybackSettleSave = z.input<typeof buybackSettleSchema>;

export const buybackListSchema = listSchema(
  {
    buybackBizCode: optionalCode('回购单编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    redState: optionalOneOf('冲红状态', BUYBACK_RED_STATES),
    buybackDateFrom: optionalDate('回购日期起'),
    buybackDateTo: optionalDate('回购日期止'),
  },
  ['buybackDate', 'amount', 'updatedAt'],
);

/** The buy-back amount on a date: each part, and the plan lines it closes. */
export interface BuybackQuote {
  contBizCode: string;
  contractNo: string;
  custName: string;
  buybackDate: string;
  /** Outstanding principal. */
  principal: string;
  /** Interest to the buy-back date (the early-settlement quote's). */
  interest: string;
  fee: string;
  /** Penalty accrued through the day before the buy-back date, less what was paid. */
  penalty: string;
  amount: string;
  /** Scheduled interest and fee after the buy-back date, not charged. */
  interestWaived: string;
  feeWaived: string;
  lines: PaidLineView[];
}

export interface BuybackRow {
  buybackBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  buybackDate: string;
  principal: string;
  interest: string;
  fee: string;
  penalty: string;
  amount: string;
  /** Received by approved 回购款核销. */
  settled: string;
  /** amount − settled: the seller's buy-back receivable still open. */
  open: string;
  state: DocState;
  redState: BuybackRedState;
  updatedAt: string;
}

export interface BuybackSettleRow {
  settleBizCode: string;
  fiidBizCode: string;
  payerName: string;
  settleDate: string;
  amount: string;
  principal: string;
  released: string;
  state: DocState;
}

export interface BuybackView extends BuybackRow {
  version: number;
  remark: string | null;
  redReason: string | null;
  released: string;
  /** The closing write-off of the approval (null before). */
  paidBizCode: string | null;
  /** The plan lines closed (after approval) or that approval would close (the quote now). */
  lines: PaidLineView[];
  settlements: BuybackSettleRow[];
}

export interface BuybackSettleView extends BuybackSettleRow {
  version: number;
  remark: string | null;
  buybackBizCode: string;
  contractNo: string;
  custName: string;
  /** The buy-back's amount and what is open on it now. */
  buybackAmount: string;
  buybackOpen: string;
  /** The incoming's balance now. */
  incomeBalance: string;
}
