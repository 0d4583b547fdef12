import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  CompUserOption,
  managerCandidateListSchema,
  ManagerChangeInit,
  managerChangeListSchema,
  ManagerChangeRow,
  managerChangeSaveSchema,
  ManagerChangeView,
  ManagerKind,
  ManagerPerson,
} from '@portal/contract/crm-change';
import type { DocState } from '@portal/contract/workflow';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { users } from '../../platform/auth/schema';
import { companies } from '../company/schema';
import { lockCustomer } from '../company';
import { addApprovedUser, transferManager } from '../crm';
import { compUsers } from '../crm/schema';
import { listFiles, setDocumentFiles } from '../files';
import type { WorkflowDoc } from '../workflow';
import { findCompany } from './customer';
import { compManagerChanges, companyHistory } from './schema';

export const MANAGER_TYPE = 'compManagerChange';
const WHAT = '管理员变更单';
export const MANAGER_STALE_MSG = '企业管理员在本变更单起草后已变更，请驳回（或删除）本变更单后重新起草';

type Change = typeof compManagerChanges.$inferSelect;
type CompUser = typeof compUsers.$inferSelect;
type SaveInput = z.output<typeof managerChangeSaveSchema>;

const live = isNull(compManagerChanges.deletedAt);
const liveUser = isNull(compUsers.deletedAt);

async function currentManager(ex: Executor, compCode: string): Promise<CompUser | undefined> {
  const [row] = await ex
    .select()
    .from(compUsers)
    .where(and(eq(compUsers.compCode, compCode), eq(compUsers.isManager, true), liveUser))
    .limit(1);
  return row;
}

const person = (u: CompUser): ManagerPerson => ({
  userCode: u.userCode,
  userName: u.userName,
  mobile: u.mobile,
  idCardNo: u.idCardNo,
});

export async function findManagerChange(ex: Executor, bizCode: string): Promise<Change> {
  const [row] = await ex
    .select()
    .from(compManagerChanges)
    .where(and(eq(compManagerChanges.bizCode, bizCode), live))
    .limit(1);
  if (!row) throw notFound(WHAT);
  return row;
}

export async function managerChangeInit(ex: Executor, compCode: string): Promise<ManagerChangeInit> {
  const c = await findCompany(ex, compCode);
  if (!c) throw notFound('企业客户');
  const current = await currentManager(ex, compCode);
  return { compCode, compName: c.compName, current: current ? person(current) : null };
}

type CandidateInput = z.output<typeof managerCandidateListSchema>;

/** Who may become the administrator: the customer's live, enabled, approved non-administrators. */
export async function listManagerCandidates(db: Db, q: CandidateInput): Promise<Page<CompUserOption>> {
  const where: SQL[] = [
    eq(compUsers.compCode, q.compCode),
    liveUser,
    eq(compUsers.state, 'enabled'),
    eq(compUsers.regState, 'approved'),
    eq(compUsers.isManager, false),
  ];
  if (q.keyword) {
    const p = likePattern(q.keyword);
    where.push(or(sql`${compUsers.userName} ilike ${p}`, sql`${compUsers.mobile} ilike ${p}`)!);
  }
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(compUsers)
    .where(cond)
    .orderBy(
      ...orderClause(q, { userName: compUsers.userName }, [asc(compUsers.userName), asc(compUsers.id)]),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${compUsers} where ${cond}`);
  return page(
    rows.map((u) => ({
      userCode: u.userCode,
      userName: u.userName,
      mobile: u.mobile,
      isManager: u.isManager,
    })),
    total,
    q,
  );
}

/** The new administrator as the body names it, checked against the customer's users as they are. */
async function newPerson(tx: Tx, body: SaveInput, current: CompUser | undefined) {
  if (body.kind === 'existing') {
    const [u] = await tx
      .select()
      .from(compUsers)
      .where(and(eq(compUsers.userCode, body.newUserCode!), liveUser))
      .limit(1);
    if (!u || u.compCode !== body.compCode) throw badInput('新管理员不是该企业的企业用户');
    if (u.state !== 'enabled') throw badInput(`新管理员「${u.userName}」已停用`);
    if (u.regState !== 'approved') throw badInput(`新管理员「${u.userName}」的注册尚未审核通过`);
    if (current && current.userCode === u.userCode) throw badInput('新管理员已是该企业的管理员');
    return { newUserCode: u.userCode, newUserName: u.userName, newMobile: u.mobile, newIdCardNo: u.idCardNo };
  }
  await mobileFree(tx, body.newMobile!, badInput);
  return {
    newUserCode: null,
    newUserName: body.newUserName!,
    newMobile: body.newMobile!,
    newIdCardNo: body.newIdCardNo!,
  };
}

async function mobileFree(ex: Executor, mobile: string, fail: (msg: string) => Error) {
  const [dup] = await ex
    .select({ userName: compUsers.userName })
    .from(compUsers)
    .where(and(eq(compUsers.mobile, mobile), liveUser))
    .limit(1);
  if (dup) throw fail(`新管理员手机号已被企业用户「${dup.userName}」使用，请选择已有企业用户`);
}

/** Writes the draft (the pipeline checks it editable, submits and answers): answers its code. */
export async function saveManagerChange(tx: Tx, body: SaveInput, actor: Actor): Promise<Written> {
  // FOR SHARE until commit: a concurrent deletion of the customer waits and then sees this change.
  await lockCustomer(tx, body.compCode);
  const current = await currentManager(tx, body.compCode);
  const next = await newPerson(tx, body, current);
  // The administrator as it is now: a draft (or rejected change) saved again is drafted anew
  // against it (only drafts and rejected changes can be saved, see assertEditable).
  const old = {
    oldUserCode: current?.userCode ?? null,
    oldUserName: current?.userName ?? null,
    oldMobile: current?.mobile ?? null,
  };
  const values = { kind: body.kind, reason: body.reason, ...next, ...old };
  let code: string;
  if (body.bizCode) {
    const doc = await findManagerChange(tx, body.bizCode);
    if (doc.compCode !== body.compCode) throw badInput('变更单不能改换企业客户');
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      compManagerChanges,
      eq(compManagerChanges.id, doc.id),
      body.version,
      values,
      actor.userId,
      WHAT,
    );
    code = doc.bizCode;
  } else {
    code = await nextCode(tx, 'comp_manager_change');
    await tx.insert(compManagerChanges).values({
      ...values,
      bizCode: code,
      compCode: body.compCode,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    });
  }
  if (body.fileTokens)
    await setDocumentFiles(tx, { docType: MANAGER_TYPE, docCode: code, fileTokens: body.fileTokens, actor });
  return { code, detail: { compCode: body.compCode, kind: body.kind, newUserName: next.newUserName } };
}

/** Before a submission: the power of attorney is there, and the administrator is still the one replaced. */
export async function managerChangeSubmission(tx: Tx, doc: Change): Promise<{ subject: string }> {
  if ((await listFiles(tx, MANAGER_TYPE, doc.bizCode)).length === 0) throw badInput('请上传授权委托书');
  const c = await lockCustomer(tx, doc.compCode);
  const current = await currentManager(tx, doc.compCode);
  if ((current?.userCode ?? null) !== doc.oldUserCode) throw conflict(MANAGER_STALE_MSG);
  return { subject: `管理员变更 ${c.compName} ${doc.newUserName}` };
}

export async function deleteManagerChange(tx: Tx, bizCode: string, actor: Actor): Promise<void> {
  await tx
    .update(compManagerChanges)
    .set({
      deletedAt: sql`now()`,
      updatedBy: actor.userId,
      updatedAt: sql`now()`,
      version: sql`${compManagerChanges.version} + 1`,
    })
    .where(and(eq(compManagerChanges.bizCode, bizCode), live));
}

const personText = (name: string | null, mobile: string | null, code: string | null) =>
  name ? `${name}（${mobile ?? ''}，${code ?? ''}）` : null;

/**
 * Workflow hook, in the approving transaction. The customer row is locked first, so rival changes
 * of one customer are decided one after the other; the administrator must still be the one the
 * change was drafted against. The old administrator loses is_manager, the new one (created as an
 * enterprise user when new) gets it; the partial unique index allows only one.
 */
export async function applyManagerChange(tx: Tx, wf: WorkflowDoc, actor: Actor): Promise<void> {
  await runCommand(tx, actor, { entity: 'company', action: 'managerChange' }, async (_tx, w) => {
    const doc = await findManagerChange(tx, wf.code);
    const c = await findCompany(tx, doc.compCode, 'update');
    if (!c) throw conflict('企业客户不存在或已删除，不能变更管理员');
    const current = await currentManager(tx, doc.compCode);
    if ((current?.userCode ?? null) !== doc.oldUserCode) throw conflict(MANAGER_STALE_MSG);
    let userCode: string;
    if (doc.kind === 'existing') {
      const [u] = await tx
        .select()
        .from(compUsers)
        .where(and(eq(compUsers.userCode, doc.newUserCode!), liveUser))
        .for('update');
      if (!u || u.compCode !== doc.compCode || u.state !== 'enabled')
        throw conflict('新管理员已不是该企业的有效企业用户，请驳回本变更单');
      if (u.regState !== 'approved') throw conflict('新管理员的注册尚未审核通过，请驳回本变更单');
      userCode = u.userCode;
    } else {
      await mobileFree(tx, doc.newMobile, conflict);
      userCode = await addApprovedUser(
        tx,
        {
          compCode: doc.compCode,
          userName: doc.newUserName,
          mobile: doc.newMobile,
          idCardNo: doc.newIdCardNo,
          bizCode: doc.bizCode,
        },
        actor,
      );
    }
    await transferManager(tx, { fromUserId: current ? current.id : null, toUserCode: userCode }, actor);
    await tx
      .update(compManagerChanges)
      .set({ newUserCode: userCode })
      .where(eq(compManagerChanges.id, doc.id));
    await tx.insert(companyHistory).values({
      compCode: doc.compCode,
      bizCode: doc.bizCode,
      changeType: 'manager',
      field: 'manager',
      oldValue: current ? personText(current.userName, current.mobile, current.userCode) : null,
      newValue: personText(doc.newUserName, doc.newMobile, userCode),
      changedBy: actor.userId || null,
    });
    await w.audit({
      code: doc.compCode,
      detail: { bizCode: doc.bizCode, from: current?.userCode ?? null, to: userCode },
    });
  });
}

// ----- reading ---------------------------------------------------------------------------------

type ListInput = z.output<typeof managerChangeListSchema>;

function toRow(doc: Change, compName: string, createdByName: string | null): ManagerChangeRow {
  return {
    bizCode: doc.bizCode,
    compCode: doc.compCode,
    compName,
    oldManagerName: doc.oldUserName,
    newManagerName: doc.newUserName,
    kind: doc.kind as ManagerKind,
    state: doc.state as DocState,
    createdByName,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** `scope`: the caller's data scope (tableScope). */
export async function listManagerChanges(db: Db, q: ListInput, scope: SQL): Promise<Page<ManagerChangeRow>> {
  const where: SQL[] = [live, scope];
  if (q.bizCode) where.push(eq(compManagerChanges.bizCode, q.bizCode));
  if (q.compCode) where.push(eq(compManagerChanges.compCode, q.compCode));
  if (q.compName) where.push(sql`${companies.compName} ilike ${likePattern(q.compName)}`);
  if (q.state) where.push(eq(compManagerChanges.state, q.state));
  const cond = and(...where)!;
  const rows = await db
    .select({ doc: compManagerChanges, compName: companies.compName, name: users.realName })
    .from(compManagerChanges)
    .innerJoin(companies, eq(companies.compCode, compManagerChanges.compCode))
    .leftJoin(users, eq(users.id, compManagerChanges.createdBy))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: compManagerChanges.bizCode,
          createdAt: compManagerChanges.createdAt,
          updatedAt: compManagerChanges.updatedAt,
        },
        [desc(compManagerChanges.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${compManagerChanges} inner join ${companies} on ${companies.compCode} = ${compManagerChanges.compCode} where ${cond}`,
  );
  return page(
    rows.map((r) => toRow(r.doc, r.compName, r.name)),
    total,
    q,
  );
}

export async function viewManagerChange(ex: Executor, bizCode: string): Promise<ManagerChangeView> {
  const [r] = await ex
    .select({ doc: compManagerChanges, compName: companies.compName, name: users.realName })
    .from(compManagerChanges)
    .innerJoin(companies, eq(companies.compCode, compManagerChanges.compCode))
    .leftJoin(users, eq(users.id, compManagerChanges.createdBy))
    .where(and(eq(compManagerChanges.bizCode, bizCode), live))
    .limit(1);
  if (!r) throw notFound(WHAT);
  const d = r.doc;
  const files = await listFiles(ex, MANAGER_TYPE, bizCode);
  return {
    ...toRow(d, r.compName, r.name),
    version: d.version,
    reason: d.reason,
    oldManager: d.oldUserName
      ? { userCode: d.oldUserCode, userName: d.oldUserName, mobile: d.oldMobile ?? '', idCardNo: null }
      : null,
    newManager: {
      userCode: d.newUserCode,
      userName: d.newUserName,
      mobile: d.newMobile,
      idCardNo: d.newIdCardNo,
    },
    files: files.map((f) => ({
      fileToken: f.fileToken,
      originFileName: f.originFileName,
      size: f.size,
      mime: f.mime,
    })),
    approvedAt: d.approvedAt,
  };
}
