import Decimal from 'decimal.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { infoSaveSchema, type DueKind, type InfoSave } from '@portal/contract/contract';
import { DISCLOSURES, DISCLOSURE_LABELS } from '@portal/contract/contract';
import { PRODUCTS, PRODUCT_LABELS, RECOURSES, RECOURSE_LABELS } from '@portal/contract/credit';
import { date, money } from '@portal/contract/fields';
import {
  OPENING_CONTRACT_COLUMNS,
  OPENING_CONTRACT_SHEET,
  OPENING_MAX_CONTRACTS,
  OPENING_MAX_PAID_ROWS,
  OPENING_PAID_COLUMNS,
  OPENING_PAID_SHEET,
  type OpeningContractKey,
  type OpeningMode,
  type OpeningPaidKey,
  type OpeningPreview,
  type OpeningResult,
  type OpeningRow,
} from '@portal/contract/opening';
import { daysBetween } from '@portal/contract/plan/dates';
import { disbursedPlan } from '@portal/contract/plan/schedule';
import { PlanInputError } from '@portal/contract/plan/money';
import type { Component } from '@portal/contract/accounts';
import type { Db, Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { AppError, badInput, conflict } from '../../platform/errors';
import { readSheet, templateWorkbook, type SheetRow } from '../../platform/xlsx';
import { occupy } from '../credit';
import { companyCodeByUscc } from '../company';
import { syncContractDebtors } from '../debtor';
import type { OpeningSteps } from './opening-steps';
import { lockContract, writeInfo } from './service';
import {
  activeItems,
  computePlan,
  insertItems,
  planProblem,
  refreshImpliedDues,
  ruleFor,
  upfrontProblem,
} from './plan';
import type { PlanPayment } from './postings';
import { contractDues, contracts } from './schema';

/*
 * 期初导入 (docs/money-lifecycle.md "Opening balances"): contracts already running elsewhere come
 * in approved and disbursed. Each row goes through the rules a contract made here goes through —
 * the contract form's schema and save (writeInfo: references, amount bounds, free invoices, room
 * on the line, a unique 合同号), the plan engine and the disbursement's plan, the approval's plan
 * and up-front checks, the line's occupation — in one savepoint; what the earlier books say was
 * repaid enters as approved write-offs of kind 'opening', dated when each item was due (or on the
 * import's date, for an item not yet due), so every reader of dated repayments reads it alike.
 */

const CONTRACT_HEADERS = Object.fromEntries(OPENING_CONTRACT_COLUMNS.map((c) => [c.header, c.key])) as Record<
  string,
  OpeningContractKey
>;
const PAID_HEADERS = Object.fromEntries(OPENING_PAID_COLUMNS.map((c) => [c.header, c.key])) as Record<
  string,
  OpeningPaidKey
>;
const required = <K extends string>(cols: readonly { key: K; header: string; required: boolean }[]) =>
  cols.filter((c) => c.required).map((c) => ({ key: c.key, label: c.header }));

/** The template: both sheets with their exact headers, required ones marked `*` (readSheet drops it). */
export function openingTemplate(): Promise<Buffer> {
  const heads = (cols: readonly { header: string; required: boolean }[]) =>
    cols.map((c) => (c.required ? `*${c.header}` : c.header));
  return templateWorkbook([
    { name: OPENING_CONTRACT_SHEET, headers: heads(OPENING_CONTRACT_COLUMNS) },
    { name: OPENING_PAID_SHEET, headers: heads(OPENING_PAID_COLUMNS) },
  ]);
}

type ContractCells = Partial<Record<OpeningContractKey, string>>;

interface ParsedFile {
  contracts: SheetRow<OpeningContractKey>[];
  paid: Map<string, SheetRow<OpeningPaidKey>[]>;
}

async function readFile(buf: Buffer): Promise<ParsedFile> {
  const rows = await readSheet(
    buf,
    CONTRACT_HEADERS,
    required(OPENING_CONTRACT_COLUMNS),
    OPENING_MAX_CONTRACTS,
    { sheet: OPENING_CONTRACT_SHEET },
  );
  const paidRows = await readSheet(buf, PAID_HEADERS, required(OPENING_PAID_COLUMNS), OPENING_MAX_PAID_ROWS, {
    sheet: OPENING_PAID_SHEET,
    allowEmpty: true,
  });
  const paid = new Map<string, SheetRow<OpeningPaidKey>[]>();
  for (const r of paidRows) {
    const no = (r.item.contractNo ?? '').normalize('NFKC').trim();
    paid.set(no, [...(paid.get(no) ?? []), r]);
  }
  return { contracts: rows, paid };
}

/** A dictionary cell: its label (有追索) or its value (with). */
function choice<T extends string>(cell: string | undefined, values: readonly T[], labels: Record<T, string>) {
  if (cell === undefined) return undefined;
  return values.find((v) => v === cell || labels[v] === cell) ?? cell;
}

const loanSchema = z.object({
  loanDate: date('放款日'),
  loanAmount: money('实际放款金额', { min: 'positive' }),
  marginReceived: money('已收保证金'),
  upfrontInterestReceived: money('已收前置利息'),
  upfrontFeeReceived: money('已收前置手续费'),
});

const paidSchema = z.object({
  period: z.string().regex(/^[1-9]\d{0,3}$/, '期次必须是正整数'),
  principalPaid: money('已还本金'),
  interestPaid: money('已还利息'),
  feePaid: money('已还费用'),
});

/** The contract form's body from a row, as the editor would send it (checked by the same schema). */
async function formBody(tx: Tx, c: ContractCells): Promise<InfoSave> {
  let debtorCode: string | undefined;
  if (c.debtorUscc) {
    debtorCode = await companyCodeByUscc(tx, c.debtorUscc);
  }
  return {
    contractNo: c.contractNo ?? '',
    recourse: choice(c.recourse, RECOURSES, RECOURSE_LABELS) as InfoSave['recourse'],
    disclosure: choice(c.disclosure, DISCLOSURES, DISCLOSURE_LABELS) as InfoSave['disclosure'],
    product: choice(c.product, PRODUCTS, PRODUCT_LABELS) as InfoSave['product'],
    custCode: c.custCode ?? '',
    platCredBizCode: c.platCredBizCode ?? '',
    lineCode: c.lineCode ?? '',
    financingRatio: c.financingRatio ?? '',
    financingAmount: c.financingAmount ?? '',
    marginRatio: c.marginRatio,
    startDate: c.startDate ?? '',
    maturityDate: c.maturityDate ?? '',
    ruleBizCode: c.ruleBizCode ?? '',
    bankBizCode: c.bankBizCode ?? '',
    remark: c.remark,
    receivables: [
      {
        invoiceCode: c.invoiceCode ?? '',
        invoiceNo: c.invoiceNo ?? '',
        invoiceDate: c.invoiceDate ?? '',
        amount: c.receivableAmount ?? '',
        debtorName: c.debtorName ?? '',
        debtorCode,
        dueDate: c.receivableDueDate ?? '',
      },
    ],
    payers: [{ payerName: c.debtorName ?? '' }],
  };
}

const issues = (e: z.ZodError) => [...new Set(e.issues.map((i) => i.message))];
const ZERO = new Decimal(0);
const RECEIVED_KEYS: Record<'margin' | 'upfrontInterest' | 'upfrontFee', keyof z.output<typeof loanSchema>> =
  {
    margin: 'marginReceived',
    upfrontInterest: 'upfrontInterestReceived',
    upfrontFee: 'upfrontFeeReceived',
  };
const RECEIVED_LABELS: Record<keyof typeof RECEIVED_KEYS, string> = {
  margin: '已收保证金',
  upfrontInterest: '已收前置利息',
  upfrontFee: '已收前置手续费',
};
const PAID_COMPONENTS: {
  key: 'principalPaid' | 'interestPaid' | 'feePaid';
  component: Component;
  due: 'principal' | 'interest' | 'fee';
  label: string;
}[] = [
  { key: 'principalPaid', component: 'PRINCIPAL', due: 'principal', label: '已还本金' },
  { key: 'interestPaid', component: 'INTEREST', due: 'interest', label: '已还利息' },
  { key: 'feePaid', component: 'FEE', due: 'fee', label: '已还费用' },
];

/** A row's refusal: every message it has, shown on the row (the savepoint is rolled back). */
class RowRefused extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('；'));
  }
}

/**
 * One contract brought in, in the caller's savepoint: everything or a RowRefused / AppError (the
 * caller rolls the savepoint back). Answers the contract's code and figures.
 */
async function importOne(
  tx: Tx,
  cells: ContractCells,
  paidRows: readonly SheetRow<OpeningPaidKey>[],
  actor: Actor,
  today: string,
  steps: Required<OpeningSteps>,
): Promise<{ bizCode: string; figures: NonNullable<OpeningRow['figures']> }> {
  return runCommand(tx, actor, { entity: 'contract', action: 'openingImport' }, async (_tx, w) => {
    const body = await formBody(tx, cells);
    const form = infoSaveSchema.safeParse(body);
    const loan = loanSchema.safeParse({
      loanDate: cells.loanDate,
      loanAmount: cells.loanAmount,
      marginReceived: cells.marginReceived ?? '0',
      upfrontInterestReceived: cells.upfrontInterestReceived ?? '0',
      upfrontFeeReceived: cells.upfrontFeeReceived ?? '0',
    });
    const errors = [...(form.success ? [] : issues(form.error)), ...(loan.success ? [] : issues(loan.error))];
    const paidParsed = paidRows.map((r) => ({
      row: r.row,
      parsed: paidSchema.safeParse({
        period: r.item.period,
        principalPaid: r.item.principalPaid ?? '0',
        interestPaid: r.item.interestPaid ?? '0',
        feePaid: r.item.feePaid ?? '0',
      }),
    }));
    for (const p of paidParsed)
      if (!p.parsed.success) errors.push(...issues(p.parsed.error).map((m) => `已还明细第${p.row}行：${m}`));
    if (!form.success || !loan.success || errors.length) throw new RowRefused(errors);
    const l = loan.data;
    if (l.loanDate < form.data.startDate) errors.push('放款日不能早于起始日');
    if (l.loanDate > today) errors.push(`放款日不能晚于营业日 ${today}`);
    if (new Decimal(l.loanAmount).gt(form.data.financingAmount)) errors.push('实际放款金额不能超过融资金额');
    if (errors.length) throw new RowRefused(errors);

    const [held] = await tx
      .select({ opening: contracts.openingDate })
      .from(contracts)
      .where(and(eq(contracts.contractNo, form.data.contractNo), isNull(contracts.deletedAt)));
    // Without the contract's code: the contract may lie outside the importer's data scope
    // (SECURITY.md "Row scope"); its number is the one the sheet gave.
    if (held?.opening)
      throw badInput(`合同号「${form.data.contractNo}」已于 ${held.opening} 期初导入，不能重复导入`);

    // The contract form's save: every rule a new contract meets (references, bounds, invoices, room on the line, 合同号).
    const { code } = await writeInfo(tx, form.data, actor, today);
    let row = await lockContract(tx, code);

    // 方案: the plan engine on the terms and the rule, as 方案 saves it; then the disbursement's plan
    // from the value date, as an approved 放款单 leaves it.
    const rule = await ruleFor(tx, code, row.ruleBizCode);
    if (rule.method === 'CUSTOM')
      throw badInput('自定义还款方式的合同不能期初导入，请按计息规则生成还款计划');
    const signed = computePlan({
      principal: row.financingAmount,
      startDate: row.startDate,
      maturityDate: row.maturityDate,
      rule,
    });
    if (signed.maturityDate !== row.maturityDate)
      throw badInput(`还款计划的最后还款日 ${signed.maturityDate} 必须等于合同到期日 ${row.maturityDate}`);
    let plan;
    try {
      plan = disbursedPlan({
        principal: row.financingAmount,
        rule,
        valueDate: l.loanDate,
        items: signed.items,
      });
    } catch (err) {
      if (err instanceof PlanInputError) throw badInput(err.message);
      throw err;
    }
    await insertItems(tx, row.id, plan.items);
    await tx
      .update(contracts)
      .set({ ruleSnapshot: rule, upfrontInterest: signed.upfrontInterest, upfrontFee: signed.upfrontFee })
      .where(eq(contracts.id, row.id));
    row = {
      ...row,
      ruleSnapshot: rule,
      upfrontInterest: signed.upfrontInterest,
      upfrontFee: signed.upfrontFee,
    };
    await refreshImpliedDues(tx, row);

    // The approval's checks, unchanged.
    const problem = planProblem(row, await activeItems(tx, row.id)) ?? (await upfrontProblem(tx, row));
    if (problem) throw conflict(problem);

    // Up-front items: received in full before the money went out (放款 waits for them); 前置利息 at
    // the value date's figure, as the 放款单 leaves it.
    const dues = await tx.select().from(contractDues).where(eq(contractDues.contractId, row.id));
    const front = rule.interestCollection === 'FRONT';
    const received = { margin: ZERO, upfrontInterest: ZERO, upfrontFee: ZERO };
    for (const kind of Object.keys(RECEIVED_KEYS) as (keyof typeof RECEIVED_KEYS)[]) {
      const given = new Decimal(l[RECEIVED_KEYS[kind]]);
      const due = dues.find((d) => d.kind === (kind as DueKind));
      const amount = due
        ? kind === 'upfrontInterest' && front
          ? new Decimal(plan.upfrontInterest)
          : new Decimal(due.amount)
        : ZERO;
      if (!given.eq(amount)) {
        errors.push(
          due
            ? `${RECEIVED_LABELS[kind]}应为 ${amount.toFixed(2)}（放款前须收齐）`
            : `${RECEIVED_LABELS[kind]}应为 0.00（计息规则与合同条款不含此项）`,
        );
        continue;
      }
      if (due && amount.gt(0)) {
        await tx
          .update(contractDues)
          .set({ amount: amount.toFixed(2), receivedAmount: amount.toFixed(2) })
          .where(eq(contractDues.id, due.id));
        received[kind] = amount;
      }
    }
    const deducted = received.margin.plus(received.upfrontInterest).plus(received.upfrontFee);
    if (new Decimal(l.loanAmount).lt(new Decimal(row.financingAmount).minus(deducted)))
      errors.push(
        `实际放款金额不能少于融资金额减已收前期款（${new Decimal(row.financingAmount).minus(deducted).toFixed(2)}）`,
      );
    if (errors.length) throw new RowRefused(errors);

    // Approved and disbursed, occupying its line as an approval does.
    await occupy(tx, {
      lineCode: row.lineCode,
      amount: row.financingAmount,
      docType: 'contract',
      docCode: code,
      date: today,
      actor,
      reason: `合同 ${row.contractNo} 期初导入`,
    });
    // Its receivables hold their debtors' lines, as an approved contract's do (docs/credit.md).
    await syncContractDebtors(tx, row.id, 'receivables', {
      docType: 'contract',
      docCode: code,
      date: today,
      actor,
      reason: `合同 ${row.contractNo} 期初导入`,
    });
    await tx
      .update(contracts)
      .set({
        state: 'approved',
        submittedAt: sql`now()`,
        submittedBy: actor.userId || null,
        approvedAt: sql`now()`,
        approvedBy: actor.userId || null,
        status: 'effective',
        occupiedAmount: row.financingAmount,
        loanState: 'loaned',
        loanDate: l.loanDate,
        loanAmount: l.loanAmount,
        openingDate: today,
      })
      .where(eq(contracts.id, row.id));

    // What was repaid before: one approved 'opening' write-off per item, dated when it fell due (on
    // time, no penalty for what was paid) or today for an item not yet due.
    const items = await activeItems(tx, row.id);
    const seen = new Set<number>();
    const paidTotals = { PRINCIPAL: ZERO, INTEREST: ZERO, FEE: ZERO } as Record<Component, Decimal>;
    let released = ZERO;
    for (const p of paidParsed) {
      if (!p.parsed.success) continue;
      const period = Number(p.parsed.data.period);
      const item = items.find((i) => i.period === period);
      if (!item) {
        errors.push(`已还明细第${p.row}行：还款计划没有第${period}期`);
        continue;
      }
      if (seen.has(period)) {
        errors.push(`已还明细第${p.row}行：第${period}期重复`);
        continue;
      }
      seen.add(period);
      const lines: PlanPayment[] = [];
      for (const c of PAID_COMPONENTS) {
        const amount = new Decimal(p.parsed.data[c.key]);
        if (amount.gt(item[c.due]))
          errors.push(
            `已还明细第${p.row}行：第${period}期${c.label} ${amount.toFixed(2)} 超过应还 ${item[c.due]}`,
          );
        else if (amount.gt(0))
          lines.push({ itemId: item.id, component: c.component, amount: amount.toFixed(2) });
      }
      if (errors.length || lines.length === 0) continue;
      const done = await steps.recordRepayment(tx, {
        contract: { id: row.id, lineCode: row.lineCode, contractNo: row.contractNo },
        period,
        paidDate: item.dueDate < today ? item.dueDate : today,
        lines,
        actor,
        today,
      });
      for (const x of lines) paidTotals[x.component] = paidTotals[x.component].plus(x.amount);
      released = released.plus(done.released);
    }
    if (errors.length) throw new RowRefused(errors);
    const outstanding = new Decimal(row.financingAmount).minus(paidTotals.PRINCIPAL);
    const after = await activeItems(tx, row.id);
    const owes = (i: (typeof after)[number]) =>
      !new Decimal(i.principalPaid).eq(i.principal) ||
      !new Decimal(i.interestPaid).eq(i.interest) ||
      !new Decimal(i.feePaid).eq(i.fee);
    if (!after.some(owes)) throw badInput('合同已全部还清，不需要期初导入');
    if (released.gt(0))
      await tx
        .update(contracts)
        .set({ occupiedAmount: sql`${contracts.occupiedAmount} - ${released.toFixed(2)}::numeric` })
        .where(eq(contracts.id, row.id));

    // The 期初 voucher (docs/accounting.md "期初"), dated the import's business date.
    const span = daysBetween(l.loanDate, row.maturityDate);
    const days = Math.min(span, daysBetween(l.loanDate, today));
    const earned =
      span <= 0
        ? received.upfrontInterest
        : received.upfrontInterest.times(days).div(span).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    await steps.postVoucher(
      tx,
      {
        kind: 'opening',
        docCode: code,
        date: today,
        principal: outstanding.toFixed(2),
        margin: received.margin.toFixed(2),
        upfrontInterest: received.upfrontInterest.toFixed(2),
        upfrontInterestEarned: earned.toFixed(2),
        aux: { custCode: row.custCode, custName: row.custName, contractNo: row.contractNo },
      },
      actor,
    );
    const figures = {
      principalOutstanding: outstanding.toFixed(2),
      principalPaid: paidTotals.PRINCIPAL.toFixed(2),
      interestPaid: paidTotals.INTEREST.toFixed(2),
      feePaid: paidTotals.FEE.toFixed(2),
      items: after.length,
    };
    await w.audit({
      code,
      detail: { contractNo: row.contractNo, loanDate: l.loanDate, loanAmount: l.loanAmount, ...figures },
    });
    return { bizCode: code, figures };
  });
}

/** Rolls back the trial import of a preview (never an error the caller sees). */
class PreviewDone extends Error {}

/** A unique violation on the 合同号 raced past the check: the other import holds the number. */
const duplicateNo = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err && (err as { code: unknown }).code === '23505';

/**
 * Runs every row in a savepoint of `tx`: a row that fails is rolled back alone and carries its
 * messages. Errors other than the rules' (a programming error) go up and end the transaction.
 */
async function runRows(
  tx: Tx,
  file: ParsedFile,
  actor: Actor,
  today: string,
  steps: Required<OpeningSteps>,
): Promise<OpeningResult> {
  const rows: OpeningRow[] = [];
  const imported: string[] = [];
  let total = ZERO;
  const seen = new Map<string, number>();
  for (const { row, item } of file.contracts) {
    const no = (item.contractNo ?? '').normalize('NFKC').trim();
    const first = seen.get(no);
    if (no && first !== undefined) {
      rows.push({ row, item, errors: [`合同号与第${first}行重复`] });
      continue;
    }
    if (no) seen.set(no, row);
    try {
      const done = await tx.transaction((sp) =>
        importOne(sp as Tx, item, file.paid.get(no) ?? [], actor, today, steps),
      );
      rows.push({ row, item, errors: [], figures: done.figures, bizCode: done.bizCode });
      imported.push(done.bizCode);
      total = total.plus(done.figures.principalOutstanding);
    } catch (err) {
      if (err instanceof RowRefused) rows.push({ row, item, errors: err.errors });
      else if (err instanceof AppError) rows.push({ row, item, errors: [err.message] });
      else if (duplicateNo(err)) rows.push({ row, item, errors: [`合同号「${no}」已被其他合同使用`] });
      else throw err;
    }
  }
  const unknown = [...file.paid.keys()].filter((no) => !seen.has(no));
  if (unknown.length) throw badInput(`已还明细中的合同号不在合同表中：${unknown.slice(0, 5).join('、')}`);
  return {
    ok: rows.every((r) => r.errors.length === 0),
    rows,
    principalOutstanding: total.toFixed(2),
    imported,
  };
}

/**
 * 预览: the whole file imported in a transaction that is then rolled back, so each row is checked
 * by exactly the rules (and against the same line room, rows before it included) that the import
 * applies. Nothing is saved.
 */
export async function previewOpening(
  db: Db,
  buf: Buffer,
  actor: Actor,
  today: string,
  steps: Required<OpeningSteps>,
): Promise<OpeningPreview> {
  const file = await readFile(buf);
  let out: OpeningResult | undefined;
  try {
    await db.transaction(async (tx) => {
      out = await runRows(tx, file, actor, today, steps);
      throw new PreviewDone();
    });
  } catch (err) {
    if (!(err instanceof PreviewDone)) throw err;
  }
  const { imported: _none, ...preview } = out!;
  return preview;
}

/**
 * 导入: `all` commits only when every row passes (else 400, nothing saved); `valid` commits the
 * rows that pass, each whole, and answers the others with their errors. One transaction either way.
 */
export async function importOpening(
  db: Db,
  buf: Buffer,
  mode: OpeningMode,
  actor: Actor,
  today: string,
  steps: Required<OpeningSteps>,
): Promise<OpeningResult> {
  const file = await readFile(buf);
  return db.transaction(async (tx) => {
    const out = await runRows(tx, file, actor, today, steps);
    if (mode === 'all' && !out.ok) {
      const bad = out.rows.filter((r) => r.errors.length);
      throw new AppError(
        400,
        `有${bad.length}行未通过校验，未导入任何合同（第${bad[0]!.row}行：${bad[0]!.errors[0]}）`,
        out,
      );
    }
    return out;
  });
}
