import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import {
  DISCLOSURE_LABELS,
  ORIGINAL_KIND_LABELS,
  type ContractInfo,
  type ContractReceivable,
} from '@portal/contract/contract';
import { CURRENCY_LABELS, CYCLE_LABELS, PRODUCT_LABELS, RECOURSE_LABELS } from '@portal/contract/credit';
import { COMPONENT_LABELS, PAID_KIND_LABELS } from '@portal/contract/accounts';
import { DUE_KIND_LABELS } from '@portal/contract/contract';
import { PA_METHOD_LABELS } from '@portal/contract/prepayment';
import { UPFRONT_LABELS } from '@portal/contract/loan';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { BizType, printContractDraftSchema } from '@portal/contract/print';
import { chineseDate, type RawPrintData, type RawRow } from '@portal/contract/print/data';
import type { PlanItem } from '@portal/contract/plan/schedule';
import type { PlanItemView } from '@portal/contract/contract';
import type { z } from 'zod';
import { queryRows, type Executor } from '../../platform/db/client';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { findContract, resolveRefs, viewInfo } from '../contract';
import { computePlan, ruleFor, viewScheme } from '../contract';
import { viewHandover } from '../contract';
import { viewPa } from '../prepayment';
import { viewLoan } from '../loan';
import { viewPaid } from '../paid';
import { viewPlatform } from '../credit';
import { statement } from '../ledger';
import { STATEMENT_KIND_LABELS } from '@portal/contract/ledger';
import { ASSET_CLASS_LABELS, UNCLASSIFIED_LABEL } from '@portal/contract/classification';
import { formatDateTime } from '@portal/contract/format';
import { viewAdj } from '../classification';
import { viewBuyback } from '../buyback';
import { BUYBACK_RED_LABELS } from '@portal/contract/buyback';
import { records } from '../workflow';
import { findNotice } from '../assignment';

/** A document's print data and the core enterprise whose template it prefers. */
export interface PrintSource {
  raw: RawPrintData;
  coreCompCode: string | null;
  /** Stamped over every page whatever the template (已冲红 on a reversed write-off). */
  mark?: string | null;
}

/** What a print names beside its document: the 客户对账单's period and contract. */
export interface PrintOptions {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  contBizCode?: string | undefined;
}

export type PrintLoader = (
  ex: Executor,
  docCode: string,
  user: ScopeUser,
  today: string,
  opts?: PrintOptions,
) => Promise<PrintSource>;

const label = <K extends string>(labels: Readonly<Record<K, string>>, key: string | null): string =>
  key === null ? '' : (labels[key as K] ?? key);

type ContractFacts = Pick<
  ContractInfo,
  | 'bizCode'
  | 'contractNo'
  | 'custName'
  | 'coreCompName'
  | 'product'
  | 'recourse'
  | 'disclosure'
  | 'financingAmount'
  | 'financingRatio'
  | 'receivablesAmount'
  | 'marginRatio'
  | 'currency'
  | 'startDate'
  | 'maturityDate'
  | 'ruleName'
  | 'bankName'
  | 'bankAccountNo'
  | 'managerName'
>;

function contractFields(
  c: ContractFacts,
  plan: { annualRate: string; totalInterest: string; totalFee: string },
  today: string,
) {
  return {
    printDate: chineseDate(today),
    contractNo: c.contractNo,
    contBizCode: c.bizCode,
    custName: c.custName,
    coreCompName: c.coreCompName,
    product: label(PRODUCT_LABELS, c.product),
    recourse: label(RECOURSE_LABELS, c.recourse),
    disclosure: label(DISCLOSURE_LABELS, c.disclosure),
    financingAmount: c.financingAmount,
    financingRatio: c.financingRatio,
    receivablesAmount: c.receivablesAmount,
    marginRatio: c.marginRatio,
    currency: label(CURRENCY_LABELS, c.currency),
    startDate: c.startDate,
    maturityDate: c.maturityDate,
    ruleName: c.ruleName,
    annualRate: plan.annualRate,
    bankName: c.bankName,
    bankAccountNo: c.bankAccountNo,
    managerName: c.managerName,
    totalInterest: plan.totalInterest,
    totalFee: plan.totalFee,
    asOf: today,
  };
}

/**
 * A plan row as printed: the schedule (应还合计 = principal + interest + fee, as signed) and, apart,
 * the penalty and overdue days as of the business date from the plan view (itemAsOf), never
 * folded into the row's total (docs/money-rules.md "Figures as of a date").
 */
const planRow = (r: PlanItem | PlanItemView): RawRow => ({
  period: r.period,
  startDate: r.startDate,
  dueDate: r.dueDate,
  days: r.days,
  principal: r.principal,
  interest: r.interest,
  fee: r.fee,
  total: new Decimal(r.principal).plus(r.interest).plus(r.fee).toFixed(2),
  penalty: 'penalty' in r ? r.penalty : '0.00',
  overdueDays: 'overdueDays' in r ? r.overdueDays : 0,
});

const receivableRow = (r: ContractReceivable): RawRow => ({
  invoiceNo: r.invoiceNo,
  debtorName: r.debtorName,
  invoiceDate: r.invoiceDate,
  dueDate: r.dueDate,
  amount: r.amount,
});

/** A saved contract: its approved plan, or before approval the plan its rule would give. */
async function contractPrint(ex: Executor, code: string, user: ScopeUser, today: string) {
  const row = await findContract(ex, code, user);
  const info = await viewInfo(ex, row);
  const scheme = await viewScheme(ex, row, today);
  const rule = scheme.rule ?? (await ruleFor(ex, row.bizCode, row.ruleBizCode));
  let plan: PlanItem[] = scheme.items;
  let totals = { totalInterest: scheme.totalInterest, totalFee: scheme.totalFee };
  if (plan.length === 0) {
    const computed = computePlan({
      principal: row.financingAmount,
      startDate: row.startDate,
      maturityDate: row.maturityDate,
      rule,
    });
    plan = computed.items;
    totals = { totalInterest: computed.totalInterest, totalFee: computed.totalFee };
  }
  return {
    row,
    info,
    scheme,
    fields: contractFields(info, { annualRate: rule.annualRate, ...totals }, today),
    plan,
  };
}

export const PRINT_LOADERS: Record<BizType, PrintLoader> = {
  async contract(ex, code, user, today) {
    const c = await contractPrint(ex, code, user, today);
    return {
      raw: {
        fields: c.fields,
        lists: { plan: c.plan.map(planRow), receivables: c.info.receivables.map(receivableRow) },
      },
      coreCompCode: c.row.coreCompCode,
    };
  },

  async repayment(ex, code, user, today) {
    const c = await contractPrint(ex, code, user, today);
    // The plan view's figures on the business date: outstanding holds the penalty due less paid.
    const open = c.scheme.items
      .map((i) => {
        const paid = new Decimal(i.principalPaid).plus(i.interestPaid).plus(i.feePaid).plus(i.penaltyPaid);
        const penaltyOpen = Decimal.max(0, new Decimal(i.penalty).minus(i.penaltyPaid));
        return { item: i, paid, penaltyOpen, outstanding: new Decimal(i.outstanding) };
      })
      .filter((x) => x.outstanding.gt(0));
    const next = open[0];
    const late = next && next.item.status === '逾期' ? next.item.overdueDays : 0;
    return {
      raw: {
        fields: {
          ...c.fields,
          nextDueDate: next?.item.dueDate ?? null,
          nextDueAmount: next ? next.outstanding.toFixed(2) : null,
          outstandingTotal: open.reduce((s, x) => s.plus(x.outstanding), new Decimal(0)).toFixed(2),
          penaltyTotal: open.reduce((s, x) => s.plus(x.penaltyOpen), new Decimal(0)).toFixed(2),
          nextOverdueDays: late,
          overdueNote: late > 0 ? `已逾期${late}天` : '',
        },
        lists: {
          openItems: open.map((x) => ({
            ...planRow(x.item),
            paid: x.paid.toFixed(2),
            outstanding: x.outstanding.toFixed(2),
          })),
        },
      },
      coreCompCode: c.row.coreCompCode,
    };
  },

  async handover(ex, code, user, today) {
    const h = await viewHandover(ex, code, user, {});
    const contract = await findContract(ex, h.contBizCode, user);
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          bizCode: h.bizCode,
          contractNo: h.contractNo,
          custName: h.custName,
          handoverName: h.handoverName,
          receiverName: h.receiverName,
          handoverDate: h.handoverDate,
          remark: h.remark,
        },
        lists: {
          items: h.items.map((i, n) => ({
            index: n + 1,
            docName: i.docName,
            kind: label(ORIGINAL_KIND_LABELS, i.kind),
            copies: i.copies,
            pages: i.pages ?? null,
            remark: i.remark ?? null,
          })),
        },
      },
      coreCompCode: contract.coreCompCode,
    };
  },

  async loan(ex, code, user, today) {
    const l = await viewLoan(ex, code, user);
    const contract = await findContract(ex, l.contBizCode, user);
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          loanBizCode: l.loanBizCode,
          contractNo: l.contractNo,
          custName: l.custName,
          valueDate: l.valueDate,
          financingAmount: l.financingAmount,
          prepaidAmount: l.prepaidTotal,
          deductedAmount: l.deductedTotal,
          returnedAmount: l.returnedTotal,
          netAmount: l.netAmount,
          payBankName: l.payBankName,
          payAccountNo: l.payAccountNo,
          payeeBankName: l.payeeBankName,
          payeeAccountNo: l.payeeAccountNo,
          serialNo: l.serialNo,
          state: label(DOC_STATE_LABELS, l.state),
          redMark: l.redState === 'reversed' ? `已冲红（${l.redReason ?? ''}）` : '',
          remark: l.remark,
        },
        // Each up-front line as the 放款单 screen shows it (docs/money-lifecycle.md).
        lists: {
          lines: l.lines.map((x) => ({
            kind: label(UPFRONT_LABELS, x.kind),
            dueAmount: x.dueAmount,
            amount: x.amount,
            prepaid: x.prepaid,
            deducted: x.deducted,
            returned: x.returned,
          })),
        },
      },
      coreCompCode: contract.coreCompCode,
    };
  },

  async prepayment(ex, code, user, today) {
    const pa = await viewPa(ex, code, user);
    const contract = await findContract(ex, pa.contBizCode, user);
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          preamtBizCode: pa.preamtBizCode,
          contractNo: pa.contractNo,
          custName: pa.custName,
          payerName: pa.payerName,
          method: label(PA_METHOD_LABELS, pa.method),
          receiveDate: pa.receiveDate,
          amount: pa.amount,
          remark: pa.remark,
        },
        lists: {
          lines: pa.lines.map((l) => ({
            kind: label(DUE_KIND_LABELS, l.kind),
            dueDate: l.dueDate,
            amount: l.amount,
            lineAmount: l.lineAmount,
          })),
        },
      },
      coreCompCode: contract.coreCompCode,
    };
  },

  async writeOff(ex, code, user, today) {
    const paid = await viewPaid(ex, code, user);
    const contract = await findContract(ex, paid.contBizCode, user);
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          paidBizCode: paid.paidBizCode,
          contractNo: paid.contractNo,
          custName: paid.custName,
          payerName: paid.payerName,
          fiidBizCode: paid.fiidBizCode,
          serialNo: paid.income.serialNo,
          valueDate: paid.income.valueDate,
          incomeAmount: paid.income.amount,
          paidDate: paid.paidDate,
          kind: label(PAID_KIND_LABELS, paid.kind),
          amount: paid.amount,
          principal: paid.principal,
          remark: paid.remark,
        },
        lists: {
          lines: paid.lines.map((l) => ({
            period: l.period,
            dueDate: l.dueDate,
            component: label(COMPONENT_LABELS, l.component),
            amount: l.amount,
          })),
        },
      },
      coreCompCode: contract.coreCompCode,
      mark: paid.red ? '已冲红' : null,
    };
  },

  /** 回购通知书: the amount on the buy-back date, part by part and line by line (docs/buyback.md). */
  async buyback(ex, code, user, today) {
    const b = await viewBuyback(ex, code, user);
    const contract = await findContract(ex, b.contBizCode, user);
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          buybackBizCode: b.buybackBizCode,
          contractNo: b.contractNo,
          custName: b.custName,
          buybackDate: b.buybackDate,
          principal: b.principal,
          interest: b.interest,
          fee: b.fee,
          penalty: b.penalty,
          amount: b.amount,
          settled: b.settled,
          open: b.open,
          state: DOC_STATE_LABELS[b.state],
          remark: b.remark,
        },
        lists: {
          lines: b.lines.map((l) => ({
            period: l.period,
            dueDate: l.dueDate,
            component: label(COMPONENT_LABELS, l.component),
            amount: l.amount,
          })),
        },
      },
      coreCompCode: contract.coreCompCode,
      mark: b.redState === 'reversed' ? BUYBACK_RED_LABELS.reversed : null,
    };
  },

  async statement(ex, code, user, today, opts = {}) {
    const dateTo = opts.dateTo ?? today;
    const s = await statement(ex, user, {
      custCode: code,
      contBizCode: opts.contBizCode,
      dateFrom: opts.dateFrom ?? `${dateTo.slice(0, 8)}01`,
      dateTo,
    });
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          custCode: s.custCode,
          custName: s.custName,
          contractNo: s.contractNo,
          dateFrom: s.dateFrom,
          dateTo: s.dateTo,
          opening: s.opening,
          disbursed: s.totals.disbursed,
          received: s.totals.received,
          principal: s.totals.principal,
          interest: s.totals.interest,
          fee: s.totals.fee,
          penalty: s.totals.penalty,
          closing: s.closing,
        },
        lists: {
          lines: s.lines.map((l) => ({
            date: l.date,
            kind: label(STATEMENT_KIND_LABELS, l.kind),
            docCode: l.docCode,
            contractNo: l.contractNo,
            disbursed: l.disbursed,
            received: l.received,
            principal: l.principal,
            interest: l.interest,
            fee: l.fee,
            penalty: l.penalty,
            balance: l.balance,
            remark: l.remark,
          })),
        },
      },
      coreCompCode: null,
    };
  },

  /**
   * 分类调整单: the document with its maker (the submitter of its latest round) and checker (who
   * approved that round; blank until then) from the approval records.
   */
  async classAdjust(ex, code, user, today) {
    const a = await viewAdj(ex, code, user, today);
    const all = await records(ex, 'classAdjust', code);
    const round = Math.max(0, ...all.map((r) => r.round));
    const last = all.filter((r) => r.round === round);
    const made = last.find((r) => r.action === 'submit');
    const checked = a.state === 'approved' ? last.filter((r) => r.action === 'approve') : [];
    const final = checked[checked.length - 1];
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          adjBizCode: a.adjBizCode,
          contBizCode: a.contBizCode,
          contractNo: a.contractNo,
          custName: a.custName,
          overdueDays: a.overdueDays,
          proposedClass: a.proposedClass ? ASSET_CLASS_LABELS[a.proposedClass] : UNCLASSIFIED_LABEL,
          fromClass: a.fromClass ? ASSET_CLASS_LABELS[a.fromClass] : UNCLASSIFIED_LABEL,
          toClass: ASSET_CLASS_LABELS[a.toClass],
          reason: a.reason,
          state: label(DOC_STATE_LABELS, a.state),
          effectiveDate: a.effectiveDate,
          makerName: made?.actorName ?? a.createdByName,
          madeAt: made ? formatDateTime(made.at) : '',
          checkerName: checked.map((r) => r.actorName).join('、'),
          checkedAt: final ? formatDateTime(final.at) : '',
          checkComment: final?.comment ?? '',
        },
        lists: {},
      },
      coreCompCode: null,
    };
  },

  /**
   * 应收账款转让通知书 (docs/assignment-notice.md): one debtor's notice, its receivables on the
   * contract, our account it is to pay into, and its confirmation as recorded.
   */
  async assignNotice(ex, code, user, today) {
    const { notice, contract } = await findNotice(ex, code, user);
    const info = await viewInfo(ex, contract);
    const mine = info.receivables.filter((r) => r.debtorName === notice.debtorName);
    const status = notice.confirmDate ? '已确认' : notice.waivedAt ? '已豁免' : '待确认';
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          noticeBizCode: notice.bizCode,
          debtorName: notice.debtorName,
          contractNo: info.contractNo,
          contBizCode: info.bizCode,
          custName: info.custName,
          recourse: label(RECOURSE_LABELS, info.recourse),
          totalAmount: mine.reduce((s, r) => s.plus(r.amount), new Decimal(0)).toFixed(2),
          bankName: info.bankName,
          bankAccountNo: info.bankAccountNo,
          status,
          confirmDate: notice.confirmDate,
          confirmedBy: notice.confirmedBy,
        },
        lists: {
          receivables: mine.map((r) => ({
            invoiceNo: r.invoiceNo,
            invoiceDate: r.invoiceDate,
            dueDate: r.dueDate,
            amount: r.amount,
          })),
        },
      },
      coreCompCode: contract.coreCompCode,
    };
  },

  async credit(ex, code, _user, today) {
    const c = await viewPlatform(ex, code);
    return {
      raw: {
        fields: {
          printDate: chineseDate(today),
          bizCode: c.bizCode,
          custName: c.custName,
          limitAmount: c.limitAmount,
          currency: label(CURRENCY_LABELS, c.currency),
          cycle: label(CYCLE_LABELS, c.cycle),
          product: label(PRODUCT_LABELS, c.product),
          startDate: c.startDate,
          endDate: c.endDate,
          state: label(DOC_STATE_LABELS, c.state),
          remark: c.remark,
        },
        lists: {},
      },
      coreCompCode: null,
    };
  },
};

/**
 * A contract form not yet saved (preContViewHtml): its references are checked as on save, and
 * the plan is the one its rule gives.
 */
export async function contractDraftSource(
  ex: Executor,
  body: z.output<typeof printContractDraftSchema>['contract'],
  today: string,
): Promise<PrintSource> {
  const refs = await resolveRefs(ex, body, today);
  const [names] = await queryRows<{
    rule_name: string | null;
    bank_name: string | null;
    account_no: string | null;
    manager_name: string | null;
  }>(
    ex,
    sql`select (select name from interest_rules where biz_code = ${body.ruleBizCode}) as rule_name,
               (select account_name from bank_accounts where biz_code = ${body.bankBizCode}) as bank_name,
               (select account_no from bank_accounts where biz_code = ${body.bankBizCode}) as account_no,
               (select real_name from users where id = ${body.managerId ?? null}) as manager_name`,
  );
  const rule = await ruleFor(ex, null, body.ruleBizCode);
  const computed = computePlan({
    principal: body.financingAmount,
    startDate: body.startDate,
    maturityDate: body.maturityDate,
    rule,
  });
  const facts: ContractFacts = {
    bizCode: body.bizCode ?? '',
    contractNo: body.contractNo,
    custName: refs.custName,
    coreCompName: refs.coreName,
    product: body.product,
    recourse: body.recourse,
    disclosure: body.disclosure,
    financingAmount: body.financingAmount,
    financingRatio: body.financingRatio,
    receivablesAmount: refs.receivablesAmount,
    marginRatio: body.marginRatio ?? null,
    currency: label(CURRENCY_LABELS, body.currency),
    startDate: body.startDate,
    maturityDate: body.maturityDate,
    ruleName: names?.rule_name ?? null,
    bankName: names?.bank_name ?? null,
    bankAccountNo: names?.account_no ?? null,
    managerName: names?.manager_name ?? null,
  };
  const totals = {
    annualRate: rule.annualRate,
    totalInterest: computed.totalInterest,
    totalFee: computed.totalFee,
  };
  return {
    raw: {
      fields: contractFields(facts, totals, today),
      lists: {
        plan: computed.items.map(planRow),
        receivables: body.receivables.map(receivableRow),
      },
    },
    coreCompCode: body.coreCompCode ?? null,
  };
}
