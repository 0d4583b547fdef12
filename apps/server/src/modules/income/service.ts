import Decimal from 'decimal.js';
import { and, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  IncomeItem,
  IncomeRow,
  IncomeView,
  incomeListSchema,
  incomeSaveSchema,
} from '@portal/contract/accounts';
import type { Page } from '@portal/contract/api';
import { formatYuan } from '@portal/contract/format';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { prebuilt } from '../../platform/db/prebuilt';
import type { Actor } from '../../platform/db/audit';
import type { Written } from '../workflow';
import { registryKey, UsageChecks } from '../../platform/module';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { bankAccounts } from '../bank/schema';
import { requireBankAccount } from '../bank';
import { postEvent, reverseDocument } from '../voucher';
import { incomes } from './schema';

export type IncomeRecord = typeof incomes.$inferSelect;
export const INCOME = '来款';
const live = isNull(incomes.deletedAt);

const balanceSql = sql<string>`(${incomes.amount} - ${incomes.allocated})::text`;

const rowColumns = {
  fiidBizCode: incomes.bizCode,
  bankBizCode: incomes.bankBizCode,
  bankAccountName: bankAccounts.accountName,
  bankAccountNo: bankAccounts.accountNo,
  payerName: incomes.payerName,
  payerAccount: incomes.payerAccount,
  payerBank: incomes.payerBank,
  amount: incomes.amount,
  allocated: incomes.allocated,
  balance: balanceSql,
  valueDate: incomes.valueDate,
  serialNo: incomes.serialNo,
  source: incomes.source,
  state: incomes.state,
  remark: incomes.remark,
  updatedAt: incomes.updatedAt,
};

const toRow = (
  r: { source: string; state: string; balance: string } & Omit<IncomeRow, 'source' | 'state' | 'balance'>,
) =>
  ({
    ...r,
    balance: new Decimal(r.balance).toFixed(2),
    source: r.source as IncomeRow['source'],
    state: r.state as IncomeRow['state'],
  }) satisfies IncomeRow;

const bankJoin = and(eq(bankAccounts.bizCode, incomes.bankBizCode), isNull(bankAccounts.deletedAt));

export async function listIncomes(
  db: Db,
  q: z.output<typeof incomeListSchema> & { approvedWithBalance?: boolean },
  /** The caller's data scope (tableScope). */
  scope: SQL,
): Promise<Page<IncomeRow>> {
  const withBalance = q.withBalance || q.approvedWithBalance;
  const cond = and(
    live,
    scope,
    q.fiidBizCode ? eq(incomes.bizCode, q.fiidBizCode) : undefined,
    q.payerName ? sql`${incomes.payerName} ilike ${likePattern(q.payerName)}` : undefined,
    q.serialNo ? sql`${incomes.serialNo} ilike ${likePattern(q.serialNo)}` : undefined,
    q.approvedWithBalance ? eq(incomes.state, 'approved') : q.state ? eq(incomes.state, q.state) : undefined,
    q.valueDateFrom ? sql`${incomes.valueDate} >= ${q.valueDateFrom}` : undefined,
    q.valueDateTo ? sql`${incomes.valueDate} <= ${q.valueDateTo}` : undefined,
    q.amountStart ? sql`${incomes.amount} >= ${q.amountStart}` : undefined,
    q.amountEnd ? sql`${incomes.amount} <= ${q.amountEnd}` : undefined,
    withBalance ? sql`${incomes.allocated} < ${incomes.amount}` : undefined,
  )!;
  const rows = await db
    .select(rowColumns)
    .from(incomes)
    .leftJoin(bankAccounts, bankJoin)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          valueDate: incomes.valueDate,
          amount: incomes.amount,
          balance: sql`${incomes.amount} - ${incomes.allocated}`,
          updatedAt: incomes.updatedAt,
        },
        [sql`${incomes.updatedAt} desc`, sql`${incomes.id} desc`],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${incomes} where ${cond}`);
  return page(rows.map(toRow), total, q);
}

export async function findIncome(ex: Executor, code: string): Promise<IncomeRecord> {
  const [row] = await incomeByCode(ex, { code });
  if (!row) throw notFound(INCOME);
  return row;
}
/** findIncome's statement, built once (platform/db/prebuilt.ts): every write-off's save reads it. */
const incomeByCode = prebuilt('income_by_code', (ex) =>
  ex
    .select()
    .from(incomes)
    .where(and(eq(incomes.bizCode, sql.placeholder('code')), live)),
);

export async function viewIncome(ex: Executor, code: string): Promise<IncomeView> {
  const [row] = await ex
    .select({ ...rowColumns, version: incomes.version, id: incomes.id })
    .from(incomes)
    .leftJoin(bankAccounts, bankJoin)
    .where(and(eq(incomes.bizCode, code), live));
  if (!row) throw notFound(INCOME);
  // The write-offs it funded: a read of paid's tables declared in eslint/schema-reads.js.
  const paids = await queryRows<IncomeView['paids'][number]>(
    ex,
    sql`select p.biz_code as "paidBizCode", c.biz_code as "contBizCode", c.contract_no as "contractNo",
               p.amount::text as amount, p.red
          from paids p join contracts c on c.id = p.contract_id
         where p.income_id = ${row.id} and p.deleted_at is null and p.state = 'approved'
         order by p.posting_seq`,
  );
  const { id: _id, version, ...rest } = row;
  return { ...toRow(rest), version, paids };
}

/** The process's subject of an incoming. */
export const incomeSubject = (i: { payerName: string; amount: string }) =>
  `来款 ${i.payerName} ${formatYuan(i.amount)}`;

/** An incoming's checks beyond its schema: our account, not in the future, serial unique per account. */
export async function checkIncome(ex: Executor, item: IncomeItem, today: string, selfId?: number) {
  await requireBankAccount(ex, item.bankBizCode, { label: '收款账户', ownerType: 'self' });
  if (item.valueDate > today) throw badInput(`来款日期不能晚于营业日 ${today}`);
  const [dup] = await ex
    .select({ code: incomes.bizCode })
    .from(incomes)
    .where(
      and(
        live,
        eq(incomes.bankBizCode, item.bankBizCode),
        eq(incomes.serialNo, item.serialNo),
        selfId ? ne(incomes.id, selfId) : undefined,
      ),
    );
  if (dup) throw conflict(`银行流水号 ${item.serialNo} 在该收款账户已登记（来款 ${dup.code}）`);
}

const values = (item: IncomeItem) => ({
  bankBizCode: item.bankBizCode,
  payerName: item.payerName,
  payerAccount: item.payerAccount ?? null,
  payerBank: item.payerBank ?? null,
  amount: item.amount,
  valueDate: item.valueDate,
  serialNo: item.serialNo,
  remark: item.remark ?? null,
});

/** A new incoming's row (typed, imported or the demo's); the pipeline's saveDraft audits it. */
export async function insertIncome(
  tx: Tx,
  item: IncomeItem,
  source: 'manual' | 'import',
  actor: Actor,
): Promise<{ code: string; detail: unknown }> {
  const code = await nextCode(tx, 'income');
  await tx.insert(incomes).values({
    ...values(item),
    bizCode: code,
    source,
    createdBy: actor.userId,
    updatedBy: actor.userId,
  });
  return { code, detail: { amount: item.amount, serialNo: item.serialNo, source } };
}

export async function saveIncome(
  tx: Tx,
  body: z.output<typeof incomeSaveSchema>,
  actor: Actor,
  today: string,
): Promise<Written> {
  if (!body.fiidBizCode) {
    await checkIncome(tx, body, today);
    return insertIncome(tx, body, 'manual', actor);
  }
  const row = await findIncome(tx, body.fiidBizCode);
  await checkIncome(tx, body, today, row.id);
  if (body.version === undefined) throw badInput('版本号不能为空');
  await updateVersioned(
    tx,
    incomes,
    eq(incomes.id, row.id),
    body.version,
    values(body),
    actor.userId,
    INCOME,
  );
  return row.bizCode;
}

export async function deleteIncome(tx: Tx, row: IncomeRecord, actor: Actor): Promise<void> {
  await tx
    .update(incomes)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${incomes.version} + 1` })
    .where(eq(incomes.id, row.id));
}

/**
 * Checks the modules that take money from an incoming register (paid: a live write-off using it,
 * named by its code), asked before an incoming is rejected or revoked (docs/architecture.md
 * "Modules": the owner asks, the user registers, so income need not know paid's tables).
 */
export const INCOME_USAGE = registryKey('income.usage', () => new UsageChecks());

/** Why an incoming may not be rejected or revoked: a live write-off uses it. */
export async function incomeInUse(ex: Executor, code: string, usage: UsageChecks): Promise<string | null> {
  const writeOff = await usage.first(ex, code);
  return writeOff ? `该来款已有核销记录（${writeOff}），不能驳回` : null;
}

/** Serial numbers already registered on these accounts (the import's duplicate check). */
export async function takenSerials(
  ex: Executor,
  pairs: readonly { bankBizCode: string; serialNo: string }[],
): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await ex
    .select({ bank: incomes.bankBizCode, serial: incomes.serialNo, code: incomes.bizCode })
    .from(incomes)
    .where(
      and(
        live,
        inArray(
          incomes.serialNo,
          pairs.map((p) => p.serialNo),
        ),
      ),
    );
  return new Map(rows.map((r) => [`${r.bank}/${r.serial}`, r.code]));
}

/** Locks an approved incoming for a posting (lock order: after the contract and its items). */
export async function lockIncome(tx: Tx, id: number): Promise<IncomeRecord> {
  const [row] = await tx.select().from(incomes).where(eq(incomes.id, id)).for('update');
  if (!row || row.deletedAt) throw notFound(INCOME);
  return row;
}

/**
 * Moves an incoming's allocated amount by `delta` (a write-off +, a reversal −) with the bound in
 * the WHERE clause (and the table's CHECK behind it): 409 when the balance cannot take it.
 */
export async function moveAllocated(tx: Tx, id: number, delta: Decimal): Promise<void> {
  const res = await allocatedMoved(tx, { id, d: delta.toFixed(2) });
  refuseUnmoved(res.length, delta);
}

function refuseUnmoved(changed: number, delta: Decimal): void {
  if (changed === 0) throw conflict(delta.isNeg() ? '来款已核销金额不足以冲回' : '来款可核销余额不足');
}

/**
 * moveAllocated's guarded update as a statement another runs (a CTE of the approval's voucher
 * insert, voucher's Alongside: a statement less an approval, bench/README.md "Fourteenth pass"),
 * answering the row it changed; `check` refuses as moveAllocated does when it changed none.
 */
export function allocatedMove(
  id: number,
  delta: Decimal,
): { statement: SQL; check(rows: readonly unknown[] | undefined): void } {
  const d = delta.toFixed(2);
  return {
    statement: sql`update incomes set allocated = allocated + ${d}::numeric
                    where id = ${id} and state = 'approved' and allocated + ${d}::numeric between 0 and amount
                   returning id`,
    check: (rows) => refuseUnmoved(rows?.length ?? 0, delta),
  };
}

/** moveAllocated's guarded update, built once (platform/db/prebuilt.ts): every approval runs it. */
const allocatedMoved = prebuilt('income_allocated_moved', (ex) => {
  const d = sql.placeholder('d');
  return ex
    .update(incomes)
    .set({ allocated: sql`${incomes.allocated} + ${d}::numeric` })
    .where(
      and(
        eq(incomes.id, sql.placeholder('id')),
        eq(incomes.state, 'approved'),
        sql`${incomes.allocated} + ${d}::numeric between 0 and ${incomes.amount}`,
      ),
    )
    .returning({ id: incomes.id });
});

/** Approval of an incoming: its voucher, in the approving transaction (docs/accounting.md "Journals"). */
export async function postIncome(tx: Tx, code: string, actor: Actor): Promise<void> {
  const row = await findIncome(tx, code);
  await postEvent(
    tx,
    { kind: 'income', docCode: code, date: row.valueDate, amount: row.amount, payer: row.payerName },
    actor,
  );
}

/** 反审核 of an approved incoming: the mirror of its voucher, dated the business date. */
export async function revokeIncome(tx: Tx, code: string, actor: Actor, today: string): Promise<void> {
  const row = await findIncome(tx, code);
  await reverseDocument(
    tx,
    { docType: 'income', docCode: code },
    { docType: 'income', docCode: code, date: today, summary: `来款反审核 ${row.payerName}` },
    actor,
  );
}
