import Decimal from 'decimal.js';
import { and, inArray, sql } from 'drizzle-orm';
import {
  INVOICE_CODE_PATTERN,
  INVOICE_NO_PATTERN,
  receivableItemSchema,
  type ImportPreviewRow,
  type InvoiceVerdict,
  type ReceivableItem,
} from '@portal/contract/credit';
import { isRealDate, MONEY_PATTERN } from '@portal/contract/fields';
import type { Executor } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { zodMessage } from '../../platform/http/validation';
import { readSheet } from '../../platform/xlsx';
import { IMPORT_TEMPLATES } from '@portal/contract/import-templates';
import { creditReceivables, credits } from './schema';

/**
 * Invoice verification (发票验证): format, structure, amount and date sanity and duplicates,
 * all local (no call to a tax service).
 * - code: 10 digits (paper VAT invoices) or 12 digits (general / electronic invoices);
 * - number: 8 digits;
 * - structure: the code carries the year its stock was issued (10-digit: digits 5–6,
 *   12-digit: digits 6–7); an invoice cannot be dated before that year;
 * - amount > 0 with at most 2 decimals; date a real date, not after the business date;
 * - duplicates: the same code + number twice in the batch, or already held by another credit.
 */
export interface InvoiceKey {
  invoiceCode: string;
  invoiceNo: string;
}
export const invoiceKey = (k: InvoiceKey) => `${k.invoiceCode}/${k.invoiceNo}`;

export function formatErrors(
  row: { invoiceCode: string; invoiceNo: string; invoiceDate: string; amount: string },
  today: string,
): string[] {
  const errors: string[] = [];
  const codeOk = INVOICE_CODE_PATTERN.test(row.invoiceCode);
  if (!codeOk) errors.push('发票代码必须是10位或12位数字');
  if (!INVOICE_NO_PATTERN.test(row.invoiceNo)) errors.push('发票号码必须是8位数字');
  const dateOk = isRealDate(row.invoiceDate);
  if (!dateOk) errors.push('开票日期必须是有效日期（YYYY-MM-DD）');
  else if (row.invoiceDate > today) errors.push(`开票日期不能晚于营业日 ${today}`);
  else if (row.invoiceDate < '2000-01-01') errors.push('开票日期不能早于2000-01-01');
  if (codeOk && dateOk) {
    const yy = row.invoiceCode.length === 10 ? row.invoiceCode.slice(4, 6) : row.invoiceCode.slice(5, 7);
    if (Number(`20${yy}`) > Number(row.invoiceDate.slice(0, 4))) errors.push('发票代码中的年份晚于开票日期');
  }
  if (
    !MONEY_PATTERN.test(row.amount.trim()) ||
    row.amount.trim().startsWith('-') ||
    !/[1-9]/.test(row.amount)
  )
    errors.push('发票金额必须是大于0且最多两位小数的金额');
  return errors;
}

/** Which of the keys are held by a credit other than `exceptCreditId`: key -> that credit's code. */
export async function takenInvoices(
  ex: Executor,
  keys: readonly InvoiceKey[],
  exceptCreditId?: number,
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const codes = [...new Set(keys.map((k) => k.invoiceCode))];
  const rows = await ex
    .select({
      invoiceCode: creditReceivables.invoiceCode,
      invoiceNo: creditReceivables.invoiceNo,
      creditId: creditReceivables.creditId,
      credBizCode: credits.bizCode,
    })
    .from(creditReceivables)
    .innerJoin(credits, sql`${credits.id} = ${creditReceivables.creditId}`)
    .where(and(inArray(creditReceivables.invoiceCode, codes)));
  const wanted = new Set(keys.map(invoiceKey));
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.creditId === exceptCreditId) continue;
    const k = invoiceKey(r);
    if (wanted.has(k)) out.set(k, r.credBizCode);
  }
  return out;
}

export async function verifyInvoices(
  ex: Executor,
  items: { invoiceCode: string; invoiceNo: string; invoiceDate: string; amount: string }[],
  today: string,
  exceptCreditId?: number,
): Promise<InvoiceVerdict[]> {
  const trimmed = items.map((i) => ({
    invoiceCode: i.invoiceCode.trim(),
    invoiceNo: i.invoiceNo.trim(),
    invoiceDate: i.invoiceDate.trim(),
    amount: i.amount.trim(),
  }));
  const taken = await takenInvoices(ex, trimmed, exceptCreditId);
  const seen = new Map<string, number>();
  return trimmed.map((row, index) => {
    const errors = formatErrors(row, today);
    const k = invoiceKey(row);
    const first = seen.get(k);
    if (first !== undefined) errors.push(`与第${first + 1}行发票重复`);
    else seen.set(k, index);
    const other = taken.get(k);
    if (other) errors.push(`发票已存在于授信 ${other}`);
    return { index, invoiceCode: row.invoiceCode, invoiceNo: row.invoiceNo, ok: errors.length === 0, errors };
  });
}

/** Checks a whole receivables section before it is saved: 400 on the first row in error, naming it. */
export async function checkReceivables(
  ex: Executor,
  items: ReceivableItem[],
  today: string,
  creditId: number,
): Promise<void> {
  const verdicts = await verifyInvoices(ex, items, today, creditId);
  for (const [i, v] of verdicts.entries()) {
    const item = items[i]!;
    const errors = [...v.errors];
    if (item.dueDate < item.invoiceDate) errors.push('应收账款到期日不能早于开票日期');
    if (errors.length > 0)
      throw badInput(`应收账款第${i + 1}行（发票 ${invoiceKey(item)}）：${errors.join('；')}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Excel import (导入应收账款): header names in the first row; every row answers its own errors.

const HEADERS: Record<string, keyof ReceivableItem> = {
  发票代码: 'invoiceCode',
  发票号码: 'invoiceNo',
  开票日期: 'invoiceDate',
  发票金额: 'amount',
  金额: 'amount',
  债务人名称: 'debtorName',
  债务人: 'debtorName',
  债务人编号: 'debtorCode',
  到期日: 'dueDate',
  应收账款到期日: 'dueDate',
  备注: 'remark',
};
/** The template's columns (下载模板), one list with the web: packages/contract/src/import-templates.ts. */
const IMPORT_HEADERS: readonly string[] = IMPORT_TEMPLATES.receivables.headers;
export const MAX_IMPORT_ROWS = 2000;

export async function parseReceivablesXlsx(
  buf: Buffer,
): Promise<Partial<Record<keyof ReceivableItem, string>>[]> {
  const label = (key: keyof ReceivableItem) => IMPORT_HEADERS.find((h) => HEADERS[h] === key) ?? key;
  const required = (
    ['invoiceCode', 'invoiceNo', 'invoiceDate', 'amount', 'debtorName', 'dueDate'] as const
  ).map((key) => ({ key, label: label(key) }));
  return (await readSheet<keyof ReceivableItem>(buf, HEADERS, required, MAX_IMPORT_ROWS)).map((r) => r.item);
}

/** Per-row preview: schema errors, verification errors (format, dates, duplicates). Nothing is saved. */
export async function previewReceivables(
  ex: Executor,
  rows: Partial<Record<keyof ReceivableItem, string>>[],
  today: string,
  creditId: number | undefined,
): Promise<ImportPreviewRow[]> {
  const verdicts = await verifyInvoices(
    ex,
    rows.map((r) => ({
      invoiceCode: r.invoiceCode ?? '',
      invoiceNo: r.invoiceNo ?? '',
      invoiceDate: r.invoiceDate ?? '',
      amount: r.amount ?? '',
    })),
    today,
    creditId,
  );
  return rows.map((item, i) => {
    const errors = new Set(verdicts[i]!.errors);
    const parsed = receivableItemSchema.safeParse(item);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const msg = zodMessage({ issues: [issue] } as unknown as Parameters<typeof zodMessage>[0]);
        if (!['invoiceCode', 'invoiceNo', 'invoiceDate', 'amount'].includes(String(issue.path[0])))
          errors.add(msg);
      }
    } else if (parsed.data.dueDate < parsed.data.invoiceDate) errors.add('应收账款到期日不能早于开票日期');
    // A valid amount reads as the two-decimal figure it is (a cell typed 1234.5 is 1234.50).
    const amount = MONEY_PATTERN.test(item.amount ?? '') ? new Decimal(item.amount!).toFixed(2) : item.amount;
    return {
      row: i + 2,
      item: { ...item, ...(amount === undefined ? {} : { amount }) },
      errors: [...errors],
    };
  });
}
