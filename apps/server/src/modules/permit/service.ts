import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  PERMIT_AREA_LABELS,
  PERMIT_SUBJECT_LABELS,
  roleNames,
  unknownRole,
  type PermitArea,
  type PermitSubject,
} from '@portal/contract/permit';
import type { Db, Executor } from '../../platform/db/client';
import { advisoryXactLock } from '../../platform/db/advisory';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf } from '../../platform/http/list';
import { companies } from '../company/schema';
import { compUsers } from '../crm/schema';
import { permitRoleChanges, permits } from './schema';
import { type PermitTable } from './queries';

const WHAT = '准入记录';
/** The house answer to a stale version (as updateVersioned gives). */
const STALE = '数据已被他人修改，请刷新后重试';

export interface SaveInput {
  bizCode?: string | undefined;
  version?: number | undefined;
  area: PermitArea;
  /** cust: the customer; user: the user (its enterprise is looked up). */
  key: string;
  roles: string[];
  remark?: string | undefined;
}

function checkRoles(subject: PermitSubject, area: PermitArea, roles: readonly string[]): void {
  const bad = unknownRole(subject, area, roles);
  if (bad !== undefined)
    throw badInput(
      `角色「${bad}」不是${PERMIT_AREA_LABELS[area]}区域的${PERMIT_SUBJECT_LABELS[subject]}角色`,
    );
}

/** The customer a new or edited admission names: it exists and is enabled. */
async function requireCustomer(ex: Executor, compCode: string) {
  const [c] = await ex
    .select({ name: companies.compName, state: companies.state })
    .from(companies)
    .where(and(eq(companies.compCode, compCode), isNull(companies.deletedAt)))
    .limit(1);
  if (!c) throw badInput('企业客户不存在');
  if (c.state !== 'enabled') throw badInput(`企业客户「${c.name}」已停用`);
  return c;
}

/**
 * The enterprise user a user admission names: registered (审核通过), enabled, live. Its row is
 * share-locked until the transaction ends, so a concurrent 停用 of the user (CRM, which locks it for
 * update and then asks userOpenAdmissions) either waits and sees this admission or is seen here.
 */
async function requireUser(ex: Executor, userCode: string) {
  const [u] = await ex
    .select({
      compCode: compUsers.compCode,
      userName: compUsers.userName,
      regState: compUsers.regState,
      state: compUsers.state,
    })
    .from(compUsers)
    .where(and(eq(compUsers.userCode, userCode), isNull(compUsers.deletedAt)))
    .for('share');
  if (!u) throw badInput('企业用户不存在');
  if (u.regState !== 'approved') throw badInput(`企业用户「${u.userName}」尚未审核通过`);
  if (u.state !== 'enabled') throw badInput(`企业用户「${u.userName}」已停用`);
  return u;
}

/**
 * A user admission needs its enterprise open in the same area. The enterprise's row is share-locked
 * until the transaction ends, so a concurrent 停用 of the enterprise (which locks it for update and
 * counts open users) either waits for this user to be counted or is seen as disabled here.
 */
async function requireCompanyOpen(ex: Executor, area: PermitArea, compCode: string): Promise<void> {
  const [p] = await ex
    .select({ state: permits.state })
    .from(permits)
    .where(and(eq(permits.subject, 'cust'), eq(permits.area, area), eq(permits.compCode, compCode)))
    .for('share');
  if (p?.state !== 'open')
    throw conflict(`所属企业在${PERMIT_AREA_LABELS[area]}区域尚未开通准入，不能为其用户办理准入`);
}

/** Serialises admissions of one subject in one area (inserts included). */
async function lockSubject(tx: Executor, subject: PermitSubject, area: PermitArea, key: string) {
  await advisoryXactLock(tx, 'permit.subject', `${subject}|${area}|${key}`);
}

export async function savePermit(
  db: Db,
  subject: PermitSubject,
  input: SaveInput,
  actor: Actor,
): Promise<{ bizCode: string }> {
  checkRoles(subject, input.area, input.roles);
  const cmd = { code: input.bizCode, version: input.version, what: WHAT };
  const action = input.bizCode ? 'update' : 'create';
  return runCommand(db, actor, { entity: 'permit', action, ...cmd }, async (tx, w) => {
    let compCode: string;
    let userCode: string | null = null;
    if (subject === 'cust') {
      await requireCustomer(tx, input.key);
      compCode = input.key;
    } else {
      const u = await requireUser(tx, input.key);
      await requireCustomer(tx, u.compCode);
      await requireCompanyOpen(tx, input.area, u.compCode);
      compCode = u.compCode;
      userCode = input.key;
    }
    const keyCol = subject === 'cust' ? permits.compCode : permits.userCode;
    const values = {
      area: input.area,
      compCode,
      userCode,
      roles: input.roles,
      remark: input.remark ?? null,
    };

    if (!input.bizCode) {
      await lockSubject(tx, subject, input.area, input.key);
      const [dup] = await tx
        .select({ bizCode: permits.bizCode })
        .from(permits)
        .where(and(eq(permits.subject, subject), eq(permits.area, input.area), eq(keyCol, input.key)))
        .limit(1);
      if (dup)
        throw conflict(
          `该${PERMIT_SUBJECT_LABELS[subject]}在${PERMIT_AREA_LABELS[input.area]}区域已有准入记录（${dup.bizCode}），不能重复新增`,
        );
      const bizCode = await nextCode(tx, 'permit');
      await tx
        .insert(permits)
        .values({ ...values, bizCode, subject, createdBy: actor.userId, updatedBy: actor.userId });
      await w.audit({ code: bizCode, detail: values });
      return { bizCode };
    }

    const where = and(eq(permits.bizCode, input.bizCode), eq(permits.subject, subject))!;
    const [before] = await tx.select().from(permits).where(where).for('update');
    if (!before) throw notFound(WHAT);
    if (before.state !== 'saved') throw conflict('已开通过的准入不能再修改，请通过设置角色变更其角色');
    if (before.area !== input.area) throw badInput('准入区域不能修改');
    const beforeKey = subject === 'cust' ? before.compCode : before.userCode;
    if (beforeKey !== input.key) {
      await lockSubject(tx, subject, input.area, input.key);
      const [dup] = await tx
        .select({ bizCode: permits.bizCode })
        .from(permits)
        .where(and(eq(permits.subject, subject), eq(permits.area, input.area), eq(keyCol, input.key)))
        .limit(1);
      if (dup)
        throw conflict(
          `该${PERMIT_SUBJECT_LABELS[subject]}在${PERMIT_AREA_LABELS[input.area]}区域已有准入记录（${dup.bizCode}），不能重复新增`,
        );
    }
    await w.update(permits, where, values);
    await w.audit({
      detail: { before: { area: before.area, key: beforeKey, roles: before.roles }, after: values },
    });
    return { bizCode: input.bizCode };
  });
}

/** Loads the record for a state change, locked, and checks the area the caller was allowed for. */
async function lockPermit(tx: Executor, subject: PermitSubject, bizCode: string, area: PermitArea) {
  const [row] = await tx
    .select()
    .from(permits)
    .where(and(eq(permits.bizCode, bizCode), eq(permits.subject, subject)))
    .for('update');
  if (!row) throw notFound(WHAT);
  if (row.area !== area) throw badInput('准入区域与准入记录不一致');
  return row;
}

function stale(version: number, row: PermitTable) {
  if (version !== row.version) throw conflict(STALE);
}

/** 开通: saved → open (first time, the roles take effect: a history row), or disabled → open again. */
export async function openPermit(
  db: Db,
  subject: PermitSubject,
  bizCode: string,
  area: PermitArea,
  version: number,
  actor: Actor,
): Promise<void> {
  await runCommand(db, actor, { entity: 'permit', code: bizCode }, async (tx, w) => {
    const row = await lockPermit(tx, subject, bizCode, area);
    if (row.state === 'open') throw conflict('该准入已开通，不能重复开通');
    stale(version, row);
    if (subject === 'cust') await requireCustomer(tx, row.compCode);
    else {
      await requireUser(tx, row.userCode!);
      await requireCompanyOpen(tx, area, row.compCode);
    }
    const first = row.state === 'saved';
    await w.touch(permits, eq(permits.id, row.id), {
      state: 'open',
      ...(first ? { openedAt: sql`now()`, openedBy: actor.userId } : {}),
      disabledAt: null,
      disabledBy: null,
    });
    if (first) await addHistory(tx, row.id, 'open', [], row.roles, null, actor);
    await w.audit({ action: first ? 'open' : 'reopen', detail: { roles: row.roles } });
  });
}

/** 停用: open → disabled. A customer with users still open in the area is refused. */
export async function disablePermit(
  db: Db,
  subject: PermitSubject,
  bizCode: string,
  area: PermitArea,
  version: number,
  actor: Actor,
): Promise<void> {
  await runCommand(db, actor, { entity: 'permit', action: 'disable', code: bizCode }, async (tx, w) => {
    const row = await lockPermit(tx, subject, bizCode, area);
    if (row.state === 'disabled') throw conflict('该准入已停用，不能重复停用');
    if (row.state === 'saved') throw conflict('该准入尚未开通，不能停用');
    stale(version, row);
    if (subject === 'cust') {
      const n = await countOf(
        tx,
        sql`from ${permits} where ${permits.subject} = 'user' and ${permits.area} = ${area}
            and ${permits.compCode} = ${row.compCode} and ${permits.state} = 'open'`,
      );
      if (n > 0) throw conflict(`该企业尚有${n}个已开通的企业用户准入，请先停用企业用户准入`);
    }
    await w.touch(permits, eq(permits.id, row.id), {
      state: 'disabled',
      disabledAt: sql`now()`,
      disabledBy: actor.userId,
    });
    await w.audit();
  });
}

async function addHistory(
  tx: Executor,
  permitId: number,
  kind: 'open' | 'change',
  before: string[],
  after: string[],
  reason: string | null,
  actor: Actor,
): Promise<string> {
  const bizCode = await nextCode(tx, 'permit_role_chg');
  await tx.insert(permitRoleChanges).values({
    bizCode,
    permitId,
    kind,
    rolesBefore: before,
    rolesAfter: after,
    reason,
    createdBy: actor.userId || null,
    createdByName: actor.userName,
  });
  return bizCode;
}

/** setCustRole / setUserRole: only on an open admission; the change is a history row. */
export async function setRoles(
  db: Db,
  subject: PermitSubject,
  input: {
    bizCode: string;
    version: number;
    area: PermitArea;
    roles: string[];
    reason?: string | undefined;
  },
  actor: Actor,
): Promise<{ bizCode: string }> {
  checkRoles(subject, input.area, input.roles);
  const cmd = { entity: 'permit', action: 'setRole', code: input.bizCode };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const row = await lockPermit(tx, subject, input.bizCode, input.area);
    if (row.state === 'disabled') throw conflict('该准入已停用，不能设置角色');
    if (row.state !== 'open') throw conflict('该准入尚未开通，不能设置角色');
    stale(input.version, row);
    const same = row.roles.length === input.roles.length && input.roles.every((r) => row.roles.includes(r));
    if (same) throw badInput('角色没有变化');
    await w.touch(permits, eq(permits.id, row.id), { roles: input.roles });
    const chg = await addHistory(tx, row.id, 'change', row.roles, input.roles, input.reason ?? null, actor);
    await w.audit({
      detail: {
        before: roleNames(subject, input.area, row.roles),
        after: roleNames(subject, input.area, input.roles),
        change: chg,
      },
    });
    return { bizCode: chg };
  });
}
