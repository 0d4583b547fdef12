import { and, asc, desc, eq, ilike, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PURPOSE_LABELS,
  SELF_OWNER_NAME,
  type BankAccountView,
  type BankDictItem,
  type bankListSchema,
  type bankSaveSchema,
  type Currency,
  type OwnerType,
  type Purpose,
} from '@portal/contract/bank';
import type { Page } from '@portal/contract/api';
import type { Db, Executor } from '../../platform/db/client';
import { registryKey, UsageChecks } from '../../platform/module';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand, type CommandWriter } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { customerNames, getCustomer, requireActiveCustomer } from '../company';
import { bankAccounts, banks } from './schema';
import { BANKS } from './banks';

type Row = typeof bankAccounts.$inferSelect;
type SaveInput = z.output<typeof bankSaveSchema>;
export type BankListQuery = z.output<typeof bankListSchema>;

const WHAT = '银行账户';
const live = isNull(bankAccounts.deletedAt);

/** Modules whose documents refer to accounts (contracts, incomings) add a check here, per portal. */
export const BANK_ACCOUNT_USAGE = registryKey('bank.accountUsage', () => new UsageChecks());

async function bankNames(ex: Executor): Promise<Map<string, string>> {
  const rows = await ex.select({ code: banks.code, name: banks.name }).from(banks);
  return new Map(rows.map((r) => [r.code, r.name]));
}

async function toViews(ex: Executor, rows: Row[]): Promise<BankAccountView[]> {
  const [bankMap, owners] = await Promise.all([
    bankNames(ex),
    customerNames(
      ex,
      rows.map((r) => r.ownerCode).filter((c): c is string => !!c),
    ),
  ]);
  return rows.map((r) => ({
    bizCode: r.bizCode,
    ownerType: r.ownerType as OwnerType,
    ownerCode: r.ownerCode,
    ownerName: r.ownerCode ? (owners.get(r.ownerCode) ?? '') : SELF_OWNER_NAME,
    bankCode: r.bankCode,
    bankName: bankMap.get(r.bankCode) ?? r.bankCode,
    branchName: r.branchName,
    accountName: r.accountName,
    accountNo: r.accountNo,
    currency: r.currency as Currency,
    purpose: r.purpose as Purpose,
    isDefault: r.isDefault,
    remark: r.remark,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

/** `scope`: the caller's data scope (tableScope); pickers of our own accounts pass none. */
export async function listAccounts(db: Db, q: BankListQuery, scope?: SQL): Promise<Page<BankAccountView>> {
  const where: SQL[] = [live];
  if (scope) where.push(scope);
  if (q.ownerType) where.push(eq(bankAccounts.ownerType, q.ownerType));
  if (q.ownerCode) where.push(eq(bankAccounts.ownerCode, q.ownerCode));
  if (q.bankCode) where.push(eq(bankAccounts.bankCode, q.bankCode));
  if (q.accountName) where.push(ilike(bankAccounts.accountName, likePattern(q.accountName)));
  if (q.accountNo) where.push(ilike(bankAccounts.accountNo, likePattern(q.accountNo)));
  if (q.purpose) where.push(eq(bankAccounts.purpose, q.purpose));
  if (q.currency) where.push(eq(bankAccounts.currency, q.currency));
  if (q.isDefault !== undefined) where.push(eq(bankAccounts.isDefault, q.isDefault));
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(bankAccounts)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: bankAccounts.bizCode,
          accountName: bankAccounts.accountName,
          bankCode: bankAccounts.bankCode,
          createdAt: bankAccounts.createdAt,
        },
        [desc(bankAccounts.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${bankAccounts} where ${cond}`);
  return page(await toViews(db, rows), total, q);
}

/** One live account by bizCode, or undefined (contracts, incomings). */
export async function getBankAccount(ex: Executor, bizCode: string): Promise<BankAccountView | undefined> {
  const rows = await ex
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.bizCode, bizCode), live))
    .limit(1);
  return (await toViews(ex, rows))[0];
}

/** An account a document may refer to; 400 naming the field when missing or of another owner. */
export async function requireBankAccount(
  ex: Executor,
  bizCode: string,
  opts: { label?: string; ownerType?: OwnerType; ownerCode?: string; purposes?: readonly Purpose[] } = {},
): Promise<BankAccountView> {
  const label = opts.label ?? WHAT;
  const a = await getBankAccount(ex, bizCode);
  if (!a) throw badInput(`${label}不存在`);
  if (opts.ownerType && a.ownerType !== opts.ownerType) throw badInput(`${label}不属于所选单位`);
  if (opts.ownerCode && a.ownerCode !== opts.ownerCode) throw badInput(`${label}不属于所选客户`);
  if (opts.purposes && !opts.purposes.includes(a.purpose))
    throw badInput(`${label}不能是${PURPOSE_LABELS[a.purpose]}`);
  return a;
}

/** The default account of an owner for a purpose, if any. */
export async function defaultAccount(
  ex: Executor,
  ownerType: OwnerType,
  ownerCode: string | null,
  purpose: Purpose,
): Promise<BankAccountView | undefined> {
  const rows = await ex
    .select()
    .from(bankAccounts)
    .where(and(groupWhere({ ownerType, ownerCode, purpose }), eq(bankAccounts.isDefault, true)))
    .limit(1);
  return (await toViews(ex, rows))[0];
}

export async function viewAccount(db: Db, bizCode: string): Promise<BankAccountView> {
  const a = await getBankAccount(db, bizCode);
  if (!a) throw notFound(WHAT);
  return a;
}

interface Group {
  ownerType: string;
  ownerCode: string | null;
  purpose: string;
}
const groupKey = (g: Group) => `${g.ownerType}|${g.ownerCode ?? ''}|${g.purpose}`;

function groupWhere(g: Group): SQL {
  return and(
    live,
    eq(bankAccounts.ownerType, g.ownerType),
    g.ownerCode ? eq(bankAccounts.ownerCode, g.ownerCode) : isNull(bankAccounts.ownerCode),
    eq(bankAccounts.purpose, g.purpose),
  )!;
}

/**
 * Serialises changes to the defaults of one owner and purpose (inserts included, which row locks
 * cannot cover). Groups are locked in key order, so two transactions never wait on each other.
 */
async function lockGroups(tx: Executor, groups: Group[]): Promise<void> {
  const keys = [...new Set(groups.map(groupKey))].sort();
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(727275, hashtext(${key}))`);
}

/** Exactly one default when the group has accounts: the oldest becomes default if none is. */
async function ensureDefault(tx: Executor, g: Group, actor: Actor): Promise<void> {
  const rows = await tx
    .select({ id: bankAccounts.id, bizCode: bankAccounts.bizCode, isDefault: bankAccounts.isDefault })
    .from(bankAccounts)
    .where(groupWhere(g))
    .orderBy(asc(bankAccounts.id));
  if (rows.length === 0 || rows.some((r) => r.isDefault)) return;
  const first = rows[0]!;
  await runCommand(
    tx,
    actor,
    { entity: 'bankAccount', action: 'setDefault', code: first.bizCode },
    async (_tx, w) => {
      await w.touch(bankAccounts, eq(bankAccounts.id, first.id), { isDefault: true });
      await w.audit({ detail: { automatic: true } });
    },
  );
}

/** The group's other defaults stop being it (part of the command that makes one the default). */
async function clearDefault(w: CommandWriter, g: Group, exceptId: number): Promise<void> {
  await w.touch(
    bankAccounts,
    and(groupWhere(g), eq(bankAccounts.isDefault, true), ne(bankAccounts.id, exceptId))!,
    { isDefault: false },
  );
}

export async function saveAccount(db: Db, input: SaveInput, actor: Actor): Promise<{ bizCode: string }> {
  const cmd = { code: input.bizCode, version: input.version, what: WHAT };
  return runCommand(
    db,
    actor,
    { entity: 'bankAccount', action: input.bizCode ? 'update' : 'create', ...cmd },
    async (tx, w) => {
      const [bank] = await tx
        .select({ state: banks.state })
        .from(banks)
        .where(eq(banks.code, input.bankCode))
        .limit(1);
      if (!bank) throw badInput('开户银行不存在');
      const ownerCode = input.ownerType === 'customer' ? (input.ownerCode ?? null) : null;
      const group: Group = { ownerType: input.ownerType, ownerCode, purpose: input.purpose };
      const values = {
        ownerType: input.ownerType,
        ownerCode,
        bankCode: input.bankCode,
        branchName: input.branchName,
        accountName: input.accountName,
        accountNo: input.accountNo,
        currency: input.currency,
        purpose: input.purpose,
        remark: input.remark ?? null,
      };
      const dupWhere = and(
        live,
        eq(bankAccounts.bankCode, input.bankCode),
        eq(bankAccounts.accountNo, input.accountNo),
      );

      if (!input.bizCode) {
        if (bank.state !== 'enabled') throw badInput('开户银行已停用');
        if (ownerCode) await requireActiveCustomer(tx, ownerCode, { label: '所属客户' });
        await lockGroups(tx, [group]);
        const [dup] = await tx.select({ id: bankAccounts.id }).from(bankAccounts).where(dupWhere).limit(1);
        if (dup) throw conflict('该开户银行下已存在相同的银行账号');
        const bizCode = await nextCode(tx, 'bank_account');
        const [hasDefault] = await tx
          .select({ id: bankAccounts.id })
          .from(bankAccounts)
          .where(and(groupWhere(group), eq(bankAccounts.isDefault, true)))
          .limit(1);
        const [row] = await tx
          .insert(bankAccounts)
          .values({ ...values, bizCode, isDefault: false, createdBy: actor.userId, updatedBy: actor.userId })
          .returning({ id: bankAccounts.id });
        if (input.isDefault || !hasDefault) {
          await clearDefault(w, group, row!.id);
          await tx.update(bankAccounts).set({ isDefault: true }).where(eq(bankAccounts.id, row!.id));
        }
        await w.audit({ code: bizCode, detail: { ...values, isDefault: input.isDefault || !hasDefault } });
        return { bizCode };
      }

      const where = and(eq(bankAccounts.bizCode, input.bizCode), live)!;
      const [before] = await tx.select().from(bankAccounts).where(where).limit(1);
      if (!before) throw notFound(WHAT);
      if (ownerCode && ownerCode !== before.ownerCode)
        await requireActiveCustomer(tx, ownerCode, { label: '所属客户' });
      else if (ownerCode && !(await getCustomer(tx, ownerCode))) throw badInput('所属客户不存在');
      const oldGroup: Group = {
        ownerType: before.ownerType,
        ownerCode: before.ownerCode,
        purpose: before.purpose,
      };
      await lockGroups(tx, [group, oldGroup]);
      const [dup] = await tx
        .select({ id: bankAccounts.id })
        .from(bankAccounts)
        .where(and(dupWhere, ne(bankAccounts.id, before.id)))
        .limit(1);
      if (dup) throw conflict('该开户银行下已存在相同的银行账号');
      const moved = groupKey(group) !== groupKey(oldGroup);
      // A default stays default within its group (clear it by making another the default).
      const makeDefault = input.isDefault || (before.isDefault && !moved);
      if (makeDefault) await clearDefault(w, group, before.id);
      await w.update(bankAccounts, where, { ...values, isDefault: makeDefault });
      if (moved) await ensureDefault(tx, oldGroup, actor);
      await ensureDefault(tx, group, actor);
      await w.audit({
        detail: {
          before: {
            ...oldGroup,
            bankCode: before.bankCode,
            accountNo: before.accountNo,
            accountName: before.accountName,
            isDefault: before.isDefault,
          },
          after: { ...values, isDefault: makeDefault },
        },
      });
      return { bizCode: input.bizCode };
    },
  );
}

/** A live account locked for a change of its group's default: its group first, then its row. */
async function lockAccount(tx: Executor, bizCode: string): Promise<{ row: Row; group: Group }> {
  const where = and(eq(bankAccounts.bizCode, bizCode), live)!;
  const [peek] = await tx.select().from(bankAccounts).where(where).limit(1);
  if (!peek) throw notFound(WHAT);
  const group: Group = { ownerType: peek.ownerType, ownerCode: peek.ownerCode, purpose: peek.purpose };
  await lockGroups(tx, [group]);
  const [row] = await tx.select().from(bankAccounts).where(where).for('update');
  if (!row) throw notFound(WHAT);
  return { row, group };
}

/** 设为默认: this account becomes its owner's default for its purpose, the previous one stops being it. */
export async function setDefaultAccount(db: Db, bizCode: string, actor: Actor): Promise<void> {
  await runCommand(
    db,
    actor,
    { entity: 'bankAccount', action: 'setDefault', code: bizCode },
    async (tx, w) => {
      const { row, group } = await lockAccount(tx, bizCode);
      if (groupKey(row) !== groupKey(group)) throw conflict('数据正被他人处理，请稍后重试');
      if (row.isDefault) return w.unchanged();
      await clearDefault(w, group, row.id);
      await w.touch(bankAccounts, eq(bankAccounts.id, row.id), { isDefault: true });
      await w.audit();
    },
  );
}

export async function deleteAccount(
  db: Db,
  bizCode: string,
  actor: Actor,
  usage: UsageChecks,
): Promise<void> {
  await runCommand(db, actor, { entity: 'bankAccount', action: 'delete', code: bizCode }, async (tx, w) => {
    const { row, group } = await lockAccount(tx, bizCode);
    const reason = await usage.first(tx, bizCode);
    if (reason) throw conflict(`银行账户正在使用中，不能删除：${reason}`);
    await w.touch(bankAccounts, eq(bankAccounts.id, row.id), { deletedAt: sql`now()`, isDefault: false });
    await w.audit({
      detail: { bankCode: row.bankCode, accountNo: row.accountNo, wasDefault: row.isDefault },
    });
    if (row.isDefault) await ensureDefault(tx, group, actor);
  });
}

export async function bankDict(db: Db): Promise<BankDictItem[]> {
  return db
    .select({ code: banks.code, label: banks.name })
    .from(banks)
    .where(eq(banks.state, 'enabled'))
    .orderBy(asc(banks.sort), asc(banks.code));
}

/** Reference data, every start: the bank list follows BANKS (names and order), nothing is removed. */
export async function seedBanks(db: Db): Promise<void> {
  // One statement for the list, not one a bank (bench/README.md "Eleventh pass"); a row already
  // as BANKS says is left as it is.
  await db
    .insert(banks)
    .values(BANKS.map((b, i) => ({ code: b.code, name: b.name, sort: i })))
    .onConflictDoUpdate({
      target: banks.code,
      set: { name: sql`excluded.name`, sort: sql`excluded.sort` },
      setWhere: sql`(banks.name, banks.sort) is distinct from (excluded.name, excluded.sort)`,
    });
}

/** Live accounts of a customer (for the customer delete check). */
export async function countCustomerAccounts(ex: Executor, compCode: string): Promise<number> {
  const rows = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(bankAccounts)
    .where(and(live, eq(bankAccounts.ownerType, 'customer'), eq(bankAccounts.ownerCode, compCode)));
  return Number(rows[0]?.n ?? 0);
}
