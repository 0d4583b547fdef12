import { z } from 'zod';
import { code, date, optionalCode, optionalDate, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { DOC_STATES, submitFlag, type DocState } from './workflow';
import { DUE_KIND_LABELS, type PlanItemView } from './contract';
import type { PlanItem } from './plan/schedule';
import { D, type Dec } from './plan/money';

/**
 * 放款单 (disbursement): the document that pays a contract's financing out to the supplier
 * (docs/money-lifecycle.md). Paths without the /api prefix; the screen's menu code is `ft-loan`.
 * `isLoan` of the contract list (loan initialisation) answers `LoanInit`.
 */
const BASE = '/ft/api/loan';
export const LOAN_PATHS = {
  list: `${BASE}/list`,
  saveBaseInfo: `${BASE}/saveBaseInfo`,
  /** ?loanBizCode */
  viewBaseInfo: `${BASE}/viewBaseInfo`,
  /** ?loanBizCode */
  deleteInfo: `${BASE}/deleteInfo`,
  /** ?loanBizCode, body auditBody */
  audit: `${BASE}/audit`,
  unAudit: `${BASE}/unAudit`,
  /** ?contBizCode: a new 放款单 prefilled from the contract (the same answer as contract isLoan). */
  initBase: `${BASE}/initBase`,
  /**
   * ?loanBizCode: the plan as approval will keep it (the first period from the value date, the
   * signed due dates unchanged) beside the plan today, with the amounts for that value date.
   */
  planPreview: `${BASE}/planPreview`,
  /** ?contBizCode&valueDate: the same preview for a 放款单 being edited. */
  planDraft: `${BASE}/planDraft`,
  /** Body as list: the list as xlsx, 合计 over the documents in force (button ft-loan:export). */
  listExport: `${BASE}/list/export`,
  /**
   * ?loanBizCode, body loanRedSchema: asks for the 冲红 of an approved disbursement — a 放款单冲红
   * entry submitted for approval at once; its approval reverses (docs/money-lifecycle.md).
   * Answers { loanRedBizCode }.
   */
  rushRed: `${BASE}/rushRed`,
  /** ?loanRedBizCode: the entry with the 放款单 it reverses. */
  redView: `${BASE}/red/viewBaseInfo`,
  /** ?loanRedBizCode: deletes a rejected entry. */
  redDelete: `${BASE}/red/deleteInfo`,
  /** ?loanRedBizCode, body auditBody: approval of the entry (buttons ft-loan:audit / unAudit). */
  redAudit: `${BASE}/red/audit`,
  redUnAudit: `${BASE}/red/unAudit`,
} as const;

export const LOAN_MENU = 'ft-loan';
export const LOAN_EXPORT_FILE_NAME = '放款单明细.xlsx';

/**
 * The up-front items (docs/money-lifecycle.md): each collected once, by a prepayment or by deduction here.
 */
export const UPFRONT_KINDS = ['margin', 'upfrontInterest', 'upfrontFee'] as const;
export type UpfrontKind = (typeof UPFRONT_KINDS)[number];
/** Named as the contract's 应收费用 name them (DUE_KIND_LABELS): one word on every screen and print. */
export const UPFRONT_LABELS: Record<UpfrontKind, string> = {
  margin: DUE_KIND_LABELS.margin,
  upfrontInterest: DUE_KIND_LABELS.upfrontInterest,
  upfrontFee: DUE_KIND_LABELS.upfrontFee,
};

export const LOAN_RED_STATES = ['none', 'reversed'] as const;
export type LoanRedState = (typeof LOAN_RED_STATES)[number];
export const LOAN_RED_LABELS: Record<LoanRedState, string> = { none: '正常', reversed: '已冲红' };

export const loanQuery = z.object({ loanBizCode: code('放款单编号') });
export const loanContQuery = z.object({ contBizCode: code('合同编号') });
export const loanDraftQuery = z.object({ contBizCode: code('合同编号'), valueDate: date('放款日') });

export const loanSaveSchema = z.object({
  loanBizCode: optionalCode('放款单编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  valueDate: date('放款日'),
  /** Our account the money leaves from. */
  payBankBizCode: code('付款账户'),
  /** The supplier's account (one of its bank accounts). */
  payeeBankBizCode: code('收款账户'),
  serialNo: text('银行流水号', 64, { nfkc: true }),
  remark: optionalText('备注', 500, { multiline: true }),
  ...submitFlag,
});
export type LoanSave = z.input<typeof loanSaveSchema>;

export const loanRedSchema = z.object({ reason: text('冲红原因', 200) });
export const loanRedQuery = z.object({ loanRedBizCode: code('冲红单编号') });

export const loanListSchema = listSchema(
  {
    loanBizCode: optionalCode('放款单编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    custName: optionalText('客户名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    redState: optionalOneOf('冲红状态', LOAN_RED_STATES),
    valueDateFrom: optionalDate('放款日起'),
    valueDateTo: optionalDate('放款日止'),
  },
  ['valueDate', 'netAmount', 'updatedAt'],
);

/** One up-front item on the 放款单: what was prepaid, what this disbursement deducts or returns. */
export interface LoanLine {
  dueId: number;
  kind: UpfrontKind;
  /**
   * The item's amount on this disbursement: the contract's due, but 前置利息 computed from the
   * value date (docs/money-lifecycle.md "Interest starts on the value date").
   */
  amount: string;
  /** The contract's due before this disbursement (what a reversal restores). */
  dueAmount: string;
  /** Received before, by approved prepayments. */
  prepaid: string;
  /** Deducted from this disbursement: amount − prepaid when positive. */
  deducted: string;
  /** Prepaid above the amount, paid back with the net (退还多收): prepaid − amount when positive. */
  returned: string;
}

/** The amounts of a disbursement, line by line (financing − Σ deducted + Σ returned = net). */
export interface LoanFigures {
  financingAmount: string;
  lines: LoanLine[];
  deductedTotal: string;
  prepaidTotal: string;
  returnedTotal: string;
  netAmount: string;
}

export interface UpfrontDue {
  dueId: number;
  kind: UpfrontKind;
  amount: string;
  received: string;
}

/**
 * Net disbursement = financing − Σ (each item − what prepayments already received of it) + what
 * they received above an item. A prepaid item is never deducted again; a partly prepaid one is
 * deducted for the rest only. `upfrontInterest`, when given, is the 前置利息 this disbursement
 * charges (from its value date): the 前置利息 item takes it instead of the contract's figure.
 */
export function disbursementFigures(
  financingAmount: string,
  dues: readonly UpfrontDue[],
  upfrontInterest?: string,
): LoanFigures {
  const financing = new D(financingAmount);
  const zero = new D(0);
  let deducted: Dec = zero;
  let prepaid: Dec = zero;
  let returned: Dec = zero;
  const lines = dues.map((d): LoanLine => {
    const amount = new D(d.kind === 'upfrontInterest' && upfrontInterest ? upfrontInterest : d.amount);
    const open = amount.minus(d.received);
    const take = D.max(open, zero);
    const back = D.max(open.negated(), zero);
    deducted = deducted.plus(take);
    returned = returned.plus(back);
    prepaid = prepaid.plus(d.received);
    return {
      dueId: d.dueId,
      kind: d.kind,
      amount: amount.toFixed(2),
      dueAmount: new D(d.amount).toFixed(2),
      prepaid: new D(d.received).toFixed(2),
      deducted: take.toFixed(2),
      returned: back.toFixed(2),
    };
  });
  return {
    financingAmount: financing.toFixed(2),
    lines,
    deductedTotal: deducted.toFixed(2),
    prepaidTotal: prepaid.toFixed(2),
    returnedTotal: returned.toFixed(2),
    netAmount: financing.minus(deducted).plus(returned).toFixed(2),
  };
}

export interface LoanInit extends LoanFigures {
  contBizCode: string;
  contractNo: string;
  custCode: string;
  custName: string;
  startDate: string;
  maturityDate: string;
  valueDate: string;
  /** Our default paying account, if any. */
  payBankBizCode: string | null;
  /** The supplier's default account, if any. */
  payeeBankBizCode: string | null;
}

export interface LoanRow {
  loanBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  valueDate: string;
  financingAmount: string;
  deductedAmount: string;
  /** 前置利息 a prepayment received above this disbursement's figure, paid back with the net. */
  returnedAmount: string;
  netAmount: string;
  serialNo: string;
  state: DocState;
  redState: LoanRedState;
  redReason: string | null;
  /** The live 放款单冲红 entry asking to reverse it (awaiting approval or rejected), if any. */
  redBizCode: string | null;
  redDocState: DocState | null;
  updatedAt: string;
}

export interface LoanView extends LoanRow, LoanFigures {
  version: number;
  custCode: string;
  startDate: string;
  maturityDate: string;
  payBankBizCode: string;
  payBankName: string | null;
  payAccountNo: string | null;
  payeeBankBizCode: string;
  payeeBankName: string | null;
  payeeAccountNo: string | null;
  remark: string | null;
  createdByName: string | null;
}

/** What the checker sees before deciding: the plan now and the plan approval will make. */
export interface LoanPlanPreview {
  valueDate: string;
  /**
   * Approval moves the first period's start to the value date (its interest computed again; the
   * due dates stay). False when the plan already starts on the value date.
   */
  rebased: boolean;
  current: PlanItemView[];
  after: PlanItem[];
  totalInterestBefore: string;
  totalInterestAfter: string;
  /** The amounts of a 放款单 on this value date as the contract stands (前置利息 from the value date). */
  figures: LoanFigures;
}

/** A 放款单冲红 entry: the reversal of one approved 放款单, approved by a checker. */
export interface LoanRedView {
  loanRedBizCode: string;
  loanBizCode: string;
  reason: string;
  state: DocState;
  createdByName: string | null;
  updatedAt: string;
  /** The 放款单 it reverses, as it stands. */
  loan: LoanView;
}
