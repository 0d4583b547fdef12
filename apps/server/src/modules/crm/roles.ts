import { and, asc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import type { CompRoleRow, roleListSchema, roleSaveSchema } from '@portal/contract/crm';
import type { Db } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { lockCustomer } from '../company';
import { compRoles, compUserRoles, compUsers } from './schema';
import { liveUser, liveRole, requireCompUsers } from './common';

/** 企业角色: a customer's own roles and their members. */

export async function listRoles(db: Db, q: z.output<typeof roleListSchema>): Promise<Page<CompRoleRow>> {
  const where: SQL[] = [liveRole, eq(compRoles.compCode, q.compCode)];
  if (q.roleName) where.push(ilike(compRoles.roleName, likePattern(q.roleName)));
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(compRoles)
    .where(cond)
    .orderBy(
      ...orderClause(q, { roleCode: compRoles.roleCode, roleName: compRoles.roleName }, [asc(compRoles.id)]),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${compRoles} where ${cond}`);
  const codes = rows.map((r) => r.roleCode);
  const members = codes.length
    ? await db
        .select({
          roleCode: compUserRoles.roleCode,
          userCode: compUsers.userCode,
          userName: compUsers.userName,
        })
        .from(compUserRoles)
        .innerJoin(compUsers, and(eq(compUsers.userCode, compUserRoles.userCode), liveUser))
        .where(inArray(compUserRoles.roleCode, codes))
        .orderBy(asc(compUsers.userCode))
    : [];
  return page(
    rows.map((r) => ({
      roleCode: r.roleCode,
      compCode: r.compCode,
      roleName: r.roleName,
      remark: r.remark,
      users: members
        .filter((m) => m.roleCode === r.roleCode)
        .map((m) => ({ userCode: m.userCode, userName: m.userName })),
      version: r.version,
      createdAt: r.createdAt,
    })),
    total,
    q,
  );
}

export async function saveRole(
  db: Db,
  input: z.output<typeof roleSaveSchema>,
  actor: Actor,
): Promise<{ roleCode: string }> {
  const cmd = {
    entity: 'compRole',
    action: input.roleCode ? 'update' : 'create',
    code: input.compCode,
    version: input.version,
    what: '企业角色',
  };
  return runCommand(db, actor, cmd, async (tx, w) => {
    await lockCustomer(tx, input.compCode);
    const members = await requireCompUsers(tx, input.compCode, input.userCodes, '角色成员');
    // A disabled user may stay a member it already was, but is not added anew.
    const kept = input.roleCode
      ? new Set(
          (
            await tx
              .select({ userCode: compUserRoles.userCode })
              .from(compUserRoles)
              .where(eq(compUserRoles.roleCode, input.roleCode))
          ).map((r) => r.userCode),
        )
      : new Set<string>();
    const disabled = members.find((u) => u.state !== 'enabled' && !kept.has(u.userCode));
    if (disabled) throw badInput(`企业用户「${disabled.userName}」已停用，不能加入角色`);
    const dupWhere = [
      liveRole,
      eq(compRoles.compCode, input.compCode),
      eq(compRoles.roleName, input.roleName),
    ];
    if (input.roleCode) dupWhere.push(ne(compRoles.roleCode, input.roleCode));
    const [dup] = await tx
      .select({ id: compRoles.id })
      .from(compRoles)
      .where(and(...dupWhere))
      .limit(1);
    if (dup) throw conflict(`企业角色「${input.roleName}」已存在`);
    let roleCode = input.roleCode;
    /** What an update changes, for the audit row's before (a new role has none). */
    let was: { roleName: string; remark: string | null; userCodes: string[] } | null = null;
    if (!roleCode) {
      roleCode = await nextCode(tx, 'comp_role');
      await tx.insert(compRoles).values({
        roleCode,
        compCode: input.compCode,
        roleName: input.roleName,
        remark: input.remark ?? null,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
    } else {
      const where = and(eq(compRoles.roleCode, roleCode), liveRole)!;
      const [before] = await tx.select().from(compRoles).where(where).limit(1);
      if (!before) throw notFound('企业角色');
      if (before.compCode !== input.compCode) throw badInput('企业角色不属于该企业');
      was = { roleName: before.roleName, remark: before.remark ?? null, userCodes: [...kept] };
      await w.update(compRoles, where, { roleName: input.roleName, remark: input.remark ?? null });
      await tx.delete(compUserRoles).where(eq(compUserRoles.roleCode, roleCode));
    }
    if (input.userCodes.length)
      await tx
        .insert(compUserRoles)
        .values(
          input.userCodes.map((userCode) => ({ roleCode: roleCode, userCode, createdBy: actor.userId })),
        );
    await w.audit({
      detail: {
        roleCode,
        before: was,
        after: { roleName: input.roleName, remark: input.remark ?? null, userCodes: input.userCodes },
      },
    });
    return { roleCode };
  });
}

export async function deleteRole(db: Db, roleCode: string, version: number, actor: Actor): Promise<void> {
  await runCommand(db, actor, { entity: 'compRole', action: 'delete', version }, async (tx, w) => {
    const [row] = await tx
      .select()
      .from(compRoles)
      .where(and(eq(compRoles.roleCode, roleCode), liveRole))
      .for('update');
    if (!row) throw notFound('企业角色');
    await w.update(compRoles, eq(compRoles.id, row.id), { deletedAt: sql`now()` });
    await tx.delete(compUserRoles).where(eq(compUserRoles.roleCode, roleCode));
    await w.audit({ code: row.compCode, detail: { roleCode, roleName: row.roleName } });
  });
}
