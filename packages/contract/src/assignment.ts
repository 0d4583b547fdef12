import { z } from 'zod';
import { code, date, text } from './fields';
import { fileToken } from './files';
import type { FileInfo } from './files';

/**
 * 应收账款转让通知书 and the debtor's 确认 (docs/assignment-notice.md). A disclosed (明保理) contract
 * notifies every debtor of its receivables; each debtor's confirmation (date, who signed, the signed
 * copy) is recorded, or a checker waives it with a reason. A disclosed contract is not disbursed
 * until every debtor is confirmed or waived. Undisclosed (暗保理) contracts need no notice.
 *
 * A debtor is named as the contract's receivables name it (`debtorName`), one notice per name.
 */
const BASE = '/ft/api/contract/notice';
export const ASSIGN_NOTICE_PATHS = {
  /** ?contBizCode: the contract's debtors, each with its notice and status. */
  list: `${BASE}/list`,
  /** body noticeConfirmSchema: records the debtor's 确认 (button ft-contract-info:noticeConfirm). */
  confirm: `${BASE}/confirm`,
  /** body noticeWaiveSchema: a checker waives the confirmation (button ft-contract-info:noticeWaive). */
  waive: `${BASE}/waive`,
  /** body noticeWithdrawSchema: withdraws a confirmation or a waiver while the contract is not disbursed. */
  withdraw: `${BASE}/withdraw`,
} as const;

/** The screen whose buttons record, waive and withdraw: 合同信息. */
export const ASSIGN_NOTICE_MENU = 'ft-contract-info';
/** The files' document type of a notice (its signed copy): follows the notice, hence its contract. */
export const ASSIGN_NOTICE_DOC_TYPE = 'assignNotice';

/** One debtor's notice. */
export const NOTICE_STATUSES = ['pending', 'confirmed', 'waived'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
export const NOTICE_STATUS_LABELS: Record<NoticeStatus, string> = {
  pending: '待确认',
  confirmed: '已确认',
  waived: '已豁免',
};

/** A contract's notices as the list shows them. */
export const ASSIGN_STATES = ['none', 'pending', 'confirmed'] as const;
export type NoticeState = (typeof ASSIGN_STATES)[number];
export const ASSIGN_STATE_LABELS: Record<NoticeState, string> = {
  none: '暗保理 无需通知',
  pending: '明保理 待确认',
  confirmed: '明保理 已确认',
};

export const noticeContQuery = z.strictObject({ contBizCode: code('合同编号') });

export const noticeConfirmSchema = z.object({
  noticeBizCode: code('通知书编号'),
  confirmDate: date('确认日期'),
  confirmedBy: text('确认人', 50),
  fileTokens: z.array(fileToken, { error: '附件格式不正确' }).max(20, '附件不能超过20个').default([]),
});

export const noticeWaiveSchema = z.object({
  noticeBizCode: code('通知书编号'),
  reason: text('豁免原因', 200),
});

export const noticeWithdrawSchema = z.object({
  noticeBizCode: code('通知书编号'),
  reason: text('撤销原因', 200),
});

export interface NoticeView {
  noticeBizCode: string;
  debtorName: string;
  /** Σ the debtor's live receivables on the contract. */
  amount: string;
  invoiceCount: number;
  status: NoticeStatus;
  confirmDate: string | null;
  confirmedBy: string | null;
  recordedByName: string | null;
  waiveReason: string | null;
  waivedByName: string | null;
  waivedAt: string | null;
  files: FileInfo[];
  version: number;
}

export interface NoticeList {
  contBizCode: string;
  disclosed: boolean;
  state: NoticeState;
  /** The contract is disbursed: confirmations and waivers can no longer be withdrawn. */
  loaned: boolean;
  /** The user asking made the contract: a waiver is someone else's act (the screen offers none). */
  youMadeIt: boolean;
  notices: NoticeView[];
}
