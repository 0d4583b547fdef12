import { and, asc, eq } from 'drizzle-orm';
import type { BankUserList } from '@portal/contract/crm';
import type { Db, Executor } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, notFound } from '../../platform/errors';
import { getBankAccount } from '../bank';
import { compBankAccountUsers, compUsers } from './schema';
import { liveUser, toUserRows, requireCompUsers } from './common';

/** 银行信息管理 grants: which enterprise users operate a customer's bank account. */

async function requireCustomerAccount(ex: Executor, bizCode: string) {
  const a = await getBankAccount(ex, bizCode);
  if (!a) throw notFound('银行账户');
  if (a.ownerType !== 'customer' || !a.ownerCode) throw badInput('只有客户的银行账户才能授权企业用户');
  return { ...a, ownerCode: a.ownerCode };
}

export async function listBankUsers(db: Db, bizCode: string): Promise<BankUserList> {
  const a = await requireCustomerAccount(db, bizCode);
  const rows = await db
    .select({ u: compUsers })
    .from(compBankAccountUsers)
    .innerJoin(compUsers, and(eq(compUsers.userCode, compBankAccountUsers.userCode), liveUser))
    .where(eq(compBankAccountUsers.accountBizCode, bizCode))
    .orderBy(asc(compUsers.userCode));
  return {
    bizCode,
    ownerCode: a.ownerCode,
    users: await toUserRows(
      db,
      rows.map((r) => r.u),
    ),
  };
}

/** The account's operators become exactly `userCodes`: enabled, approved users of the account's owner. */
export async function saveBankUsers(
  db: Db,
  bizCode: string,
  userCodes: readonly string[],
  actor: Actor,
): Promise<void> {
  await runCommand(db, actor, { entity: 'bankAccountUsers', action: 'update' }, async (tx, w) => {
    const a = await requireCustomerAccount(tx, bizCode);
    const users = await requireCompUsers(tx, a.ownerCode, userCodes, '授权用户');
    for (const u of users) {
      if (u.state !== 'enabled') throw badInput(`企业用户「${u.userName}」已停用，不能授权`);
      if (u.regState !== 'approved') throw badInput(`企业用户「${u.userName}」的注册尚未审核通过，不能授权`);
    }
    const was = await tx
      .delete(compBankAccountUsers)
      .where(eq(compBankAccountUsers.accountBizCode, bizCode))
      .returning({ userCode: compBankAccountUsers.userCode });
    if (userCodes.length)
      await tx
        .insert(compBankAccountUsers)
        .values(
          userCodes.map((userCode) => ({ accountBizCode: bizCode, userCode, createdBy: actor.userId })),
        );
    await w.audit({
      code: a.ownerCode,
      detail: { bizCode, before: { userCodes: was.map((r) => r.userCode).sort() }, after: { userCodes } },
    });
  });
}
