import { and, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { compUsers } from './schema';
import { liveUser } from './common';

/**
 * An enterprise's administrator (管理员) as other modules change it: crm owns the enterprise
 * users, so an approved 管理员变更单 (crm-change) writes them through these, in its transaction,
 * after it has locked the customer and the users involved (docs/architecture.md "Modules").
 */

/**
 * A new enterprise user, its registration approved at once, made by the approved administrator
 * change `bizCode`; the caller has checked the mobile is free. Answers its user code.
 */
export async function addApprovedUser(
  tx: Tx,
  u: {
    compCode: string;
    userName: string;
    mobile: string;
    idCardNo: string | null;
    /** The 管理员变更单 that makes it. */
    bizCode: string;
  },
  actor: Actor,
): Promise<string> {
  return runCommand(tx, actor, { entity: 'compUser', action: 'create' }, async (_tx, w) => {
    const userCode = await nextCode(tx, 'comp_user');
    await tx.insert(compUsers).values({
      userCode,
      compCode: u.compCode,
      userName: u.userName,
      mobile: u.mobile,
      idCardNo: u.idCardNo,
      regState: 'approved',
      regComment: `管理员变更单 ${u.bizCode}`,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    });
    await w.audit({ code: userCode, detail: { compCode: u.compCode, bizCode: u.bizCode } });
    return userCode;
  });
}

/**
 * Moves the administrator flag: the current administrator (by row id, when there is one) loses
 * it, then `toUserCode` gets it; the partial unique index allows one administrator per enterprise.
 */
export async function transferManager(
  tx: Tx,
  m: { fromUserId: number | null; toUserCode: string },
  actor: Actor,
): Promise<void> {
  const bump = { version: sql`${compUsers.version} + 1`, updatedAt: sql`now()`, updatedBy: actor.userId };
  if (m.fromUserId !== null)
    await tx
      .update(compUsers)
      .set({ isManager: false, ...bump })
      .where(eq(compUsers.id, m.fromUserId));
  await tx
    .update(compUsers)
    .set({ isManager: true, ...bump })
    .where(and(eq(compUsers.userCode, m.toUserCode), liveUser));
}

/**
 * Demo data (fresh database only): an approved administrator for the enterprise `compCode`; a
 * row that would break a unique index (one administrator, one mobile) is left out.
 */
export async function addDemoManager(ex: Executor, compCode: string): Promise<void> {
  const code = await nextCode(ex, 'comp_user');
  await ex.execute(sql`insert into comp_users (user_code, comp_code, user_name, mobile, id_card_no, post, is_manager, reg_state)
    values (${code}, ${compCode}, '陈立群', '13916020001', '310115198001010016', '财务经理', true, 'approved')
    on conflict do nothing`);
}
