import Decimal from 'decimal.js';
import { and, eq, inArray } from 'drizzle-orm';
import { customPlanRowSchema, type CustomPlanRow, type ImportPreview } from '@portal/contract/contract';
import type { ReceivableItem } from '@portal/contract/credit';
import { isRealDate, MONEY_PATTERN } from '@portal/contract/fields';
import type { Executor } from '../../platform/db/client';
import { readSheet } from '../../platform/xlsx';
import { parseReceivablesXlsx, previewReceivables } from '../credit';
import { contractReceivables, contracts } from './schema';
import { formatYuan } from '@portal/contract/format';

/**
 * Receivables for a contract: the credit module's invoice checks (format, dates, duplicates in
 * the file, held by another credit) plus invoices already transferred to a live contract.
 */
export async function previewContractReceivables(
  ex: Executor,
  buf: Buffer,
  today: string,
  creditId: number | undefined,
): Promise<ImportPreview<ReceivableItem>> {
  const rows = await previewReceivables(ex, await parseReceivablesXlsx(buf), today, creditId);
  const nos = rows.map((r) => r.item.invoiceNo ?? '').filter(Boolean);
  const taken = nos.length
    ? await ex
        .select({
          code: contracts.bizCode,
          invoiceCode: contractReceivables.invoiceCode,
          invoiceNo: contractReceivables.invoiceNo,
        })
        .from(contractReceivables)
        .innerJoin(contracts, eq(contracts.id, contractReceivables.contractId))
        .where(and(eq(contractReceivables.live, true), inArray(contractReceivables.invoiceNo, nos)))
    : [];
  const byKey = new Map(taken.map((t) => [`${t.invoiceCode}/${t.invoiceNo}`, t.code]));
  const out = rows.map((r) => {
    const held = byKey.get(`${r.item.invoiceCode ?? ''}/${r.item.invoiceNo ?? ''}`);
    return { ...r, errors: held ? [...r.errors, `该发票已转让给合同 ${held}`] : r.errors };
  });
  return { ok: out.every((r) => r.errors.length === 0), rows: out };
}

const PLAN_HEADERS: Record<string, keyof CustomPlanRow> = {
  还款日: 'dueDate',
  还款日期: 'dueDate',
  本金: 'principal',
  应还本金: 'principal',
};
const MAX_PLAN_ROWS = 360;

/**
 * resovlePlanExcel: custom plan rows (还款日, 本金) with per-row errors — a real date, a positive
 * amount, due dates strictly ascending, and (given the financing amount) Σ principal equal to it.
 */
export async function previewPlanExcel(
  buf: Buffer,
  opts: { financingAmount?: string | undefined; startDate?: string | undefined },
): Promise<ImportPreview<CustomPlanRow> & { totalPrincipal: string }> {
  const sheet = await readSheet<keyof CustomPlanRow>(
    buf,
    PLAN_HEADERS,
    [
      { key: 'dueDate', label: '还款日' },
      { key: 'principal', label: '本金' },
    ],
    MAX_PLAN_ROWS,
  );
  const rows: ImportPreview<CustomPlanRow>['rows'] = [];
  let previous = opts.startDate ?? '';
  let total = new Decimal(0);
  for (const { row: r, item } of sheet) {
    const errors: string[] = [];
    const parsed = customPlanRowSchema.safeParse(item);
    if (!parsed.success) errors.push(...parsed.error.issues.map((i) => i.message));
    if (item.dueDate && isRealDate(item.dueDate)) {
      if (previous && item.dueDate <= previous)
        errors.push(previous === opts.startDate ? '还款日必须晚于合同起始日' : '还款日必须晚于上一期还款日');
      previous = item.dueDate;
    }
    if (item.principal && MONEY_PATTERN.test(item.principal)) total = total.plus(item.principal);
    rows.push({ row: r, item, errors });
  }
  if (opts.financingAmount && !total.eq(opts.financingAmount)) {
    rows[rows.length - 1]!.errors.push(
      `本金合计 ${formatYuan(total)} 与融资金额 ${formatYuan(opts.financingAmount)} 不一致`,
    );
  }
  return { ok: rows.every((r) => r.errors.length === 0), rows, totalPrincipal: total.toFixed(2) };
}
