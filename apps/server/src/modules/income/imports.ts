import Decimal from 'decimal.js';
import { and, eq, isNull } from 'drizzle-orm';
import {
  incomeItemSchema,
  type IncomeImportPreview,
  type IncomeImportRow,
  type IncomeItem,
} from '@portal/contract/accounts';
import { isRealDate, normalizeSerial } from '@portal/contract/fields';
import type { Executor, Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { AppError, badInput } from '../../platform/errors';
import { readSheet } from '../../platform/xlsx';
import { bankAccounts } from '../bank/schema';
import { saveDraft, type WorkflowRegistry } from '../workflow';
import { checkIncome, incomeSubject, insertIncome, takenSerials } from './service';

type Key = keyof IncomeItem | 'accountNo';
const HEADERS: Record<string, Key> = {
  收款账号: 'accountNo',
  收款账户: 'accountNo',
  银行流水号: 'serialNo',
  流水号: 'serialNo',
  交易流水号: 'serialNo',
  付款人名称: 'payerName',
  付款人: 'payerName',
  对方户名: 'payerName',
  付款人账号: 'payerAccount',
  对方账号: 'payerAccount',
  付款人开户行: 'payerBank',
  对方开户行: 'payerBank',
  金额: 'amount',
  来款金额: 'amount',
  贷方金额: 'amount',
  交易日期: 'valueDate',
  来款日期: 'valueDate',
  备注: 'remark',
  摘要: 'remark',
};
const MAX_ROWS = 2000;

/**
 * resovleIncomeExcel: a bank statement's rows as incomings, each with its errors — the schema's
 * field messages, the receiving account known as ours, the value date not after the business
 * date, and the serial number new on its account (neither registered nor twice in the file).
 * Nothing is saved.
 */
export async function previewIncomeExcel(
  ex: Executor,
  buf: Buffer,
  today: string,
): Promise<IncomeImportPreview> {
  const sheet = await readSheet<Key>(
    buf,
    HEADERS,
    [
      { key: 'accountNo', label: '收款账号' },
      { key: 'serialNo', label: '银行流水号' },
      { key: 'payerName', label: '付款人名称' },
      { key: 'amount', label: '金额' },
      { key: 'valueDate', label: '交易日期' },
    ],
    MAX_ROWS,
  );
  const ours = await ex
    .select({ code: bankAccounts.bizCode, no: bankAccounts.accountNo })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerType, 'self'), isNull(bankAccounts.deletedAt)));
  const byNo = new Map(ours.map((a) => [a.no.replace(/\s/g, ''), a.code]));
  // Serials compared as stored: normalised (docs/money-rules.md "Bank serial numbers").
  const candidates = sheet.map(({ item }) => ({
    bankBizCode: byNo.get((item.accountNo ?? '').replace(/\s/g, '')) ?? '',
    serialNo: normalizeSerial(item.serialNo ?? ''),
  }));
  const taken = await takenSerials(
    ex,
    candidates.filter((c) => c.bankBizCode && c.serialNo),
  );
  const seen = new Map<string, number>();
  const rows: IncomeImportRow[] = [];
  const valid: IncomeItem[] = [];
  let total = new Decimal(0);
  sheet.forEach(({ row, item }, i) => {
    const errors: string[] = [];
    const bankBizCode = candidates[i]!.bankBizCode;
    if (item.accountNo && !bankBizCode) errors.push(`收款账号 ${item.accountNo} 不是本公司的账户`);
    // Bank exports write amounts with thousands separators (and cells may carry spaces).
    const amount = item.amount?.replace(/,/g, '').trim();
    const parsed = incomeItemSchema.safeParse({ ...item, amount, bankBizCode: bankBizCode || undefined });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'bankBizCode' && item.accountNo) continue;
        errors.push(issue.message);
      }
    }
    if (item.valueDate && isRealDate(item.valueDate) && item.valueDate > today)
      errors.push(`来款日期不能晚于营业日 ${today}`);
    let duplicate = false;
    const serial = candidates[i]!.serialNo;
    if (bankBizCode && serial) {
      const key = `${bankBizCode}/${serial}`;
      const held = taken.get(key);
      const first = seen.get(key);
      if (held) errors.push(`银行流水号已登记（来款 ${held}）`);
      if (first !== undefined) errors.push(`银行流水号与第${first}行重复`);
      duplicate = Boolean(held) || first !== undefined;
      if (first === undefined) seen.set(key, row);
    }
    rows.push({ row, item: { ...item, ...(amount ? { amount } : {}) }, errors, duplicate });
    if (errors.length === 0 && parsed.success) {
      valid.push(parsed.data);
      total = total.plus(parsed.data.amount);
    }
  });
  return { rows, valid, total: total.toFixed(2) };
}

/**
 * incomingImportSave: every row checked again and saved through the document pipeline (audited,
 * and submitted when asked) in this transaction, or none.
 */
export async function saveImportedIncomes(
  tx: Tx,
  workflow: WorkflowRegistry,
  rows: readonly IncomeItem[],
  opts: { actor: Actor; today: string; submit: boolean },
): Promise<string[]> {
  const keys = new Set<string>();
  for (const [i, r] of rows.entries()) {
    const key = `${r.bankBizCode}/${r.serialNo}`;
    if (keys.has(key)) throw badInput(`第${i + 1}条：银行流水号 ${r.serialNo} 重复`);
    keys.add(key);
  }
  const codes: string[] = [];
  for (const [i, r] of rows.entries()) {
    try {
      await checkIncome(tx, r, opts.today);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.status, `第${i + 1}条：${err.message}`);
      throw err;
    }
    const { code } = await saveDraft(tx, workflow, {
      type: 'income',
      actor: opts.actor,
      write: () => insertIncome(tx, r, 'import', opts.actor),
      submission: opts.submit ? async () => ({ subject: incomeSubject(r), amount: r.amount }) : undefined,
    });
    codes.push(code);
  }
  return codes;
}
