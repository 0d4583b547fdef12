import Decimal from 'decimal.js';
import type { AccountRole, VoucherDocType } from '@portal/contract/voucher';

/**
 * The journal rules (docs/accounting.md "Journals"): what each approved money event debits and
 * credits, by account role. Pure: the owning module hands over the event's figures (exact decimal
 * strings), the voucher module maps the roles to accounts and numbers the voucher.
 */

/** 辅助核算: the customer and contract a line belongs to. */
export interface Aux {
  custCode?: string | null;
  custName?: string | null;
  contractNo?: string | null;
}

/** What the up-front items (前期款项) amount to, by kind. */
export interface Upfront {
  margin: string;
  upfrontInterest: string;
  upfrontFee: string;
}

export type MoneyEvent =
  | {
      kind: 'disbursement';
      docCode: string;
      date: string;
      /** The principal lent (the contract's financing amount). */
      financing: string;
      /** Paid out to the supplier: financing − Σ deducted + returned. */
      net: string;
      deducted: Upfront;
      /** 前置利息 a prepayment received above the disbursement's figure, paid back within the net. */
      returnedInterest?: string;
      aux: Aux;
    }
  | { kind: 'prepayment'; docCode: string; date: string; received: Upfront; aux: Aux }
  | { kind: 'income'; docCode: string; date: string; amount: string; payer: string }
  | {
      kind: 'writeOff';
      docCode: string;
      date: string;
      principal: string;
      interest: string;
      fee: string;
      penalty: string;
      aux: Aux;
    }
  | {
      /** A buy-back's approval: the plan's open items closed into the seller's buy-back receivable. */
      kind: 'buyback';
      docCode: string;
      date: string;
      principal: string;
      interest: string;
      fee: string;
      penalty: string;
      aux: Aux;
    }
  | {
      /** A 回购款核销's approval: an incoming spent on the buy-back receivable. */
      kind: 'buybackSettle';
      docCode: string;
      date: string;
      amount: string;
      aux: Aux;
    }
  | {
      /**
       * 期初: an imported contract's balances carried in (docs/accounting.md "期初"), against the
       * opening clearing account.
       */
      kind: 'opening';
      docCode: string;
      date: string;
      /** Principal outstanding on the import's date. */
      principal: string;
      /** 保证金 received and still held. */
      margin: string;
      /** 前置利息 received, whole. */
      upfrontInterest: string;
      /** Its share earned before the import's date (already income in the earlier books). */
      upfrontInterestEarned: string;
      aux: Aux;
    }
  | {
      kind: 'accrual';
      /** YYYY-MM of the month end. */
      period: string;
      date: string;
      contracts: { amount: string; aux: Aux }[];
    }
  | {
      /** 前置利息 recognised in a month: 预收利息 → 利息收入 (negative takes back what was recognised). */
      kind: 'deferral';
      period: string;
      date: string;
      contracts: { amount: string; aux: Aux }[];
    }
  | {
      /**
       * A 核销坏账's approval (docs/accounting.md "Bad-debt write-off"): the principal written off
       * against the contract's 坏账准备, the shortfall charged to 信用减值损失.
       */
      kind: 'badDebt';
      docCode: string;
      date: string;
      principal: string;
      reserveUsed: string;
      lossCharged: string;
      aux: Aux;
    }
  | {
      /** The month-end provisioning: the change in each contract's 坏账准备 (negative releases). */
      kind: 'provision';
      period: string;
      date: string;
      contracts: { amount: string; aux: Aux }[];
    };

export interface JournalLine {
  role: AccountRole;
  summary: string;
  debit: string;
  credit: string;
  aux: Aux;
}

export interface Journal {
  docType: VoucherDocType;
  docCode: string;
  date: string;
  summary: string;
  lines: JournalLine[];
}

const ZERO = new Decimal(0);
const fix = (v: Decimal.Value) => new Decimal(v).toFixed(2);

function builder(summary: string, aux: Aux) {
  const lines: JournalLine[] = [];
  const add = (side: 'debit' | 'credit', role: AccountRole, amount: Decimal.Value, lineAux = aux) => {
    if (new Decimal(amount).isZero()) return;
    lines.push({
      role,
      summary,
      debit: side === 'debit' ? fix(amount) : '0.00',
      credit: side === 'credit' ? fix(amount) : '0.00',
      aux: lineAux,
    });
  };
  return { lines, dr: add.bind(null, 'debit'), cr: add.bind(null, 'credit') };
}

const who = (aux: Aux) => [aux.custName, aux.contractNo].filter(Boolean).join(' ');

/** The journal of one event; lines of 0.00 are left out. */
export function journalOf(e: MoneyEvent): Journal {
  switch (e.kind) {
    case 'disbursement': {
      const summary = `放款 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      b.dr('factoring', e.financing);
      b.cr('bank', e.net);
      b.cr('margin', e.deducted.margin);
      // 前置利息 is earned over the days it covers: deferred, recognised by the month-end accrual.
      b.cr('deferredInterest', e.deducted.upfrontInterest);
      b.cr('feeIncome', e.deducted.upfrontFee);
      // The excess a prepayment received leaves the deferral it went to, paid out within the net
      // (docs/accounting.md "Journals").
      b.dr('deferredInterest', e.returnedInterest ?? 0);
      return { docType: 'loan', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'prepayment': {
      const summary = `收前期款 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      const r = e.received;
      b.dr('bank', new Decimal(r.margin).plus(r.upfrontInterest).plus(r.upfrontFee));
      b.cr('margin', r.margin);
      b.cr('deferredInterest', r.upfrontInterest);
      b.cr('feeIncome', r.upfrontFee);
      return { docType: 'prepayment', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'income': {
      const summary = `来款 ${e.payer}`.trim();
      const b = builder(summary, { custName: e.payer });
      b.dr('bank', e.amount);
      b.cr('advance', e.amount);
      return { docType: 'income', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'writeOff': {
      const summary = `来款核销 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      b.dr('advance', new Decimal(e.principal).plus(e.interest).plus(e.fee).plus(e.penalty));
      b.cr('factoring', e.principal);
      b.cr('interestIncome', e.interest);
      b.cr('feeIncome', e.fee);
      b.cr('penaltyIncome', e.penalty);
      return { docType: 'paid', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'buyback': {
      // As a write-off's, the seller's receivable standing where the incoming would (docs/accounting.md).
      const summary = `回购 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      b.dr('buyback', new Decimal(e.principal).plus(e.interest).plus(e.fee).plus(e.penalty));
      b.cr('factoring', e.principal);
      b.cr('interestIncome', e.interest);
      b.cr('feeIncome', e.fee);
      b.cr('penaltyIncome', e.penalty);
      return { docType: 'buyback', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'buybackSettle': {
      const summary = `回购款核销 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      b.dr('advance', e.amount);
      b.cr('buyback', e.amount);
      return { docType: 'buybackSettle', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'opening': {
      const summary = `期初 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      b.dr('factoring', e.principal);
      b.cr('margin', e.margin);
      // The deferral carried whole, less what the earlier books already recognised: the month-end
      // 摊销 reads both lines (accrual.ts deferralDue) and recognises only the days from here on.
      b.cr('deferredInterest', e.upfrontInterest);
      b.dr('deferredInterest', e.upfrontInterestEarned);
      const rest = new Decimal(e.principal)
        .plus(e.upfrontInterestEarned)
        .minus(e.margin)
        .minus(e.upfrontInterest);
      if (rest.gt(0)) b.cr('openingClearing', rest);
      else b.dr('openingClearing', rest.neg());
      return { docType: 'opening', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'badDebt': {
      // Interest, fee and penalty closed with it were never booked (the accrual reverses itself),
      // so only the principal leaves the books.
      const summary = `核销坏账 ${who(e.aux)}`.trim();
      const b = builder(summary, e.aux);
      b.dr('badDebtReserve', e.reserveUsed);
      b.dr('creditLoss', e.lossCharged);
      b.cr('factoring', e.principal);
      return { docType: 'badDebt', docCode: e.docCode, date: e.date, summary, lines: b.lines };
    }
    case 'accrual':
      return monthEndJournal(e, 'interestReceivable', `计提${e.period}应收利息`);
    case 'deferral':
      return monthEndJournal(e, 'deferredInterest', `摊销${e.period}预收利息`);
    case 'provision': {
      const summary = `计提${e.period}减值准备`;
      const b = builder(summary, {});
      for (const c of e.contracts) b.dr('creditLoss', c.amount, c.aux);
      for (const c of e.contracts) b.cr('badDebtReserve', c.amount, c.aux);
      return { docType: 'provision', docCode: e.period, date: e.date, summary, lines: b.lines };
    }
  }
}

/** A month end's journal: per contract, `debit` debited and 利息收入 credited with its amount. */
function monthEndJournal(
  e: Extract<MoneyEvent, { kind: 'accrual' | 'deferral' }>,
  debit: AccountRole,
  summary: string,
): Journal {
  const b = builder(summary, {});
  for (const c of e.contracts) b.dr(debit, c.amount, c.aux);
  for (const c of e.contracts) b.cr('interestIncome', c.amount, c.aux);
  return { docType: e.kind, docCode: e.period, date: e.date, summary, lines: b.lines };
}

/** Σ debit and Σ credit of a journal; a posted journal has them equal. */
export function totals(lines: readonly { debit: string; credit: string }[]) {
  return lines.reduce((t, l) => ({ debit: t.debit.plus(l.debit), credit: t.credit.plus(l.credit) }), {
    debit: ZERO,
    credit: ZERO,
  });
}
