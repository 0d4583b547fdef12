import { and, desc, eq, gte, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CHANGE_FIELD_LABELS,
  changedFields,
  changeValueText,
  type ChangeField,
  type CompanyHistoryItem,
  type companyHistoryListSchema,
  type HistoryChangeType,
  type CompanyValues,
  type InfoChangeInit,
  type infoChangeListSchema,
  type InfoChangeRow,
  type infoChangeSaveSchema,
  type InfoChangeView,
} from '@portal/contract/crm-change';
import type { CompRole, CompType, Industry } from '@portal/contract/company';
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
import { geo } from '../geo';
import { applyCompanyValues, checkUscc, lockCustomer, regionName } from '../company';
import type { WorkflowDoc } from '../workflow';
import { findCompany } from './customer';
import { compInfoChanges, companyHistory } from './schema';

export const INFO_TYPE = 'compInfoChange';
const WHAT = '企业信息变更单';
const CUSTOMER = '企业客户';
export const INFO_STALE_MSG = '企业信息在本变更单起草后已被修改，请驳回（或删除）本变更单后重新起草';

type Change = typeof compInfoChanges.$inferSelect;
type SaveInput = z.output<typeof infoChangeSaveSchema>;

const live = isNull(compInfoChanges.deletedAt);

/** The change-relevant values of a customer row (or of a change document's new values). */
export function valuesOfCompany(
  c: Omit<CompanyValues, 'compType' | 'industry' | 'roles'> & {
    compType: string;
    industry: string | null;
    roles: string[];
  },
): CompanyValues {
  return {
    compName: c.compName,
    usccCode: c.usccCode,
    legalPerson: c.legalPerson,
    regCapital: c.regCapital,
    establishDate: c.establishDate,
    compType: c.compType as CompType,
    provinceCode: c.provinceCode,
    cityCode: c.cityCode,
    areaCode: c.areaCode,
    address: c.address,
    industry: c.industry as Industry | null,
    roles: c.roles as CompRole[],
    contactName: c.contactName,
    contactPhone: c.contactPhone,
    contactEmail: c.contactEmail,
    remark: c.remark,
  };
}

function valuesOfInput(b: SaveInput): CompanyValues {
  return {
    compName: b.compName,
    usccCode: b.usccCode,
    legalPerson: b.legalPerson,
    regCapital: b.regCapital,
    establishDate: b.establishDate ?? null,
    compType: b.compType,
    provinceCode: b.provinceCode,
    cityCode: b.cityCode ?? null,
    areaCode: b.areaCode ?? null,
    address: b.address ?? null,
    industry: b.industry ?? null,
    roles: b.roles,
    contactName: b.contactName ?? null,
    contactPhone: b.contactPhone ?? null,
    contactEmail: b.contactEmail ?? null,
    remark: b.remark ?? null,
  };
}

/** Province, city and district must exist and nest (as the customer screen checks them). */
function checkRegion(v: CompanyValues) {
  const g = geo();
  if (!v.provinceCode) throw badInput('所在省份不能为空');
  if (!g.provinces.some((p) => p.code === v.provinceCode)) throw badInput('所在省份不存在');
  if (v.cityCode) {
    if (!(g.children.get(v.provinceCode) ?? []).some((c) => c.code === v.cityCode))
      throw badInput('所在城市不属于所选省份');
  } else if (v.areaCode) throw badInput('请先选择所在城市');
  if (v.areaCode && v.cityCode && !(g.children.get(v.cityCode) ?? []).some((a) => a.code === v.areaCode))
    throw badInput('所在区县不属于所选城市');
}

export async function findInfoChange(ex: Executor, bizCode: string): Promise<Change> {
  const [row] = await ex
    .select()
    .from(compInfoChanges)
    .where(and(eq(compInfoChanges.bizCode, bizCode), live))
    .limit(1);
  if (!row) throw notFound(WHAT);
  return row;
}

/** The customer's open (draft or pending) change other than `except`, if any. */
async function openChange(ex: Executor, compCode: string, except?: string): Promise<string | null> {
  const [row] = await ex
    .select({ bizCode: compInfoChanges.bizCode })
    .from(compInfoChanges)
    .where(
      and(
        eq(compInfoChanges.compCode, compCode),
        live,
        sql`${compInfoChanges.state} in ('draft', 'pending')`,
        except ? ne(compInfoChanges.bizCode, except) : undefined,
      ),
    )
    .limit(1);
  return row?.bizCode ?? null;
}

const openConflict = (code: string) => conflict(`该企业已有未完成的信息变更单 ${code}，请先处理该变更单`);

/**
 * Two saves racing past the check above meet the partial unique index comp_info_changes_open_key
 * (one open change per customer): the loser's transaction has rolled back; answer it in words.
 */
export function openIndexConflict(err: unknown): never {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const x = e as { code?: unknown; constraint?: unknown; message?: unknown };
    const named =
      x.constraint === 'comp_info_changes_open_key' ||
      (typeof x.message === 'string' && x.message.includes('comp_info_changes_open_key'));
    if (x.code === '23505' && named) throw conflict('该企业已有未完成的信息变更单，请先处理该变更单');
  }
  throw err;
}

export async function infoChangeInit(ex: Executor, compCode: string): Promise<InfoChangeInit> {
  const c = await findCompany(ex, compCode);
  if (!c) throw notFound(CUSTOMER);
  return {
    compCode,
    compVersion: c.version,
    values: valuesOfCompany(c),
    openBizCode: await openChange(ex, compCode),
  };
}

async function ensureUsccFree(ex: Executor, usccCode: string, compCode: string) {
  const dup = await checkUscc(ex, usccCode, compCode);
  if (dup.exists) throw conflict(`统一社会信用代码已被企业「${dup.compName}」使用`);
}

/** Writes the draft (the pipeline checks it editable, submits and answers): answers its code. */
export async function saveInfoChange(tx: Tx, body: SaveInput, actor: Actor): Promise<Written> {
  const after = valuesOfInput(body);
  checkRegion(after);
  let code: string;
  let before: CompanyValues;
  const columns = {
    reason: body.reason ?? null,
    ...after,
  };
  if (body.bizCode) {
    const doc = await findInfoChange(tx, body.bizCode);
    if (doc.compCode !== body.compCode) throw badInput('变更单不能改换企业客户');
    if (body.version === undefined) throw badInput('版本号不能为空');
    before = doc.beforeValues as CompanyValues;
    if (changedFields(before, after).length === 0) throw badInput('未修改任何企业信息');
    await ensureUsccFree(tx, after.usccCode, body.compCode);
    await updateVersioned(
      tx,
      compInfoChanges,
      eq(compInfoChanges.id, doc.id),
      body.version,
      columns,
      actor.userId,
      WHAT,
    );
    code = doc.bizCode;
  } else {
    // FOR SHARE until commit: a concurrent deletion of the customer waits and then sees this draft.
    const c = await lockCustomer(tx, body.compCode);
    const open = await openChange(tx, body.compCode);
    if (open) throw openConflict(open);
    before = valuesOfCompany(c);
    if (changedFields(before, after).length === 0) throw badInput('未修改任何企业信息');
    await ensureUsccFree(tx, after.usccCode, body.compCode);
    code = await nextCode(tx, 'comp_info_change');
    await tx.insert(compInfoChanges).values({
      ...columns,
      bizCode: code,
      compCode: body.compCode,
      baseVersion: c.version,
      beforeValues: before,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    });
  }
  return { code, detail: { compCode: body.compCode, changed: changedFields(before, after) } };
}

/** Before a submission: still the only open change, on the customer's version it was drafted on. */
export async function infoChangeSubmission(tx: Tx, doc: Change): Promise<{ subject: string }> {
  // A rejected change turns pending again: still at most one open change per customer.
  const open = await openChange(tx, doc.compCode, doc.bizCode);
  if (open) throw openConflict(open);
  const c = await findCompany(tx, doc.compCode, 'share');
  if (!c) throw conflict('企业客户不存在或已删除，不能提交');
  if (c.version !== doc.baseVersion) throw conflict(INFO_STALE_MSG);
  return { subject: `企业信息变更 ${(doc.beforeValues as CompanyValues).compName}` };
}

export async function deleteInfoChange(tx: Tx, bizCode: string, actor: Actor): Promise<void> {
  await tx
    .update(compInfoChanges)
    .set({
      deletedAt: sql`now()`,
      updatedBy: actor.userId,
      updatedAt: sql`now()`,
      version: sql`${compInfoChanges.version} + 1`,
    })
    .where(and(eq(compInfoChanges.bizCode, bizCode), live));
}

const historyText = (f: ChangeField, v: CompanyValues): string | null => {
  const s = changeValueText(v[f]);
  return s === '' ? null : s;
};

/**
 * Workflow hook, in the approving transaction: the customer takes the new values, but only while
 * it still has the version the change was drafted on (else 409 and everything rolls back: the
 * document stays pending and can be rejected). The replaced values go to company_history and the
 * audit log.
 */
export async function applyInfoChange(tx: Tx, wf: WorkflowDoc, actor: Actor): Promise<void> {
  await runCommand(tx, actor, { entity: 'company', action: 'change' }, async (_tx, w) => {
    const doc = await findInfoChange(tx, wf.code);
    const c = await findCompany(tx, doc.compCode, 'update');
    if (!c) throw conflict('企业客户不存在或已删除，不能变更');
    if (c.version !== doc.baseVersion) throw conflict(INFO_STALE_MSG);
    const before = valuesOfCompany(c);
    const after = valuesOfCompany(doc);
    const fields = changedFields(before, after);
    await ensureUsccFree(tx, after.usccCode, doc.compCode);
    if (!(await applyCompanyValues(tx, c.id, doc.baseVersion, after, actor))) throw conflict(INFO_STALE_MSG);
    if (fields.length > 0)
      await tx.insert(companyHistory).values(
        fields.map((f) => ({
          compCode: doc.compCode,
          bizCode: doc.bizCode,
          changeType: 'info',
          field: f,
          oldValue: historyText(f, before),
          newValue: historyText(f, after),
          changedBy: actor.userId || null,
        })),
      );
    await w.audit({
      code: doc.compCode,
      detail: {
        bizCode: doc.bizCode,
        before: Object.fromEntries(fields.map((f) => [f, before[f]])),
        after: Object.fromEntries(fields.map((f) => [f, after[f]])),
      },
    });
  });
}

// ----- reading ---------------------------------------------------------------------------------

type ListInput = z.output<typeof infoChangeListSchema>;

const dayStart = (d: string) => sql`${`${d}T00:00:00+08:00`}::timestamptz`;
const dayAfter = (d: string) => sql`(${`${d}T00:00:00+08:00`}::timestamptz + interval '1 day')`;

function toRow(doc: Change, createdByName: string | null): InfoChangeRow {
  const before = doc.beforeValues as CompanyValues;
  return {
    bizCode: doc.bizCode,
    compCode: doc.compCode,
    compName: before.compName,
    newCompName: doc.compName,
    changedFields: changedFields(before, valuesOfCompany(doc)),
    state: doc.state as DocState,
    createdByName,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** `scope`: the caller's data scope (tableScope). */
export async function listInfoChanges(db: Db, q: ListInput, scope: SQL): Promise<Page<InfoChangeRow>> {
  const where: SQL[] = [live, scope];
  if (q.bizCode) where.push(eq(compInfoChanges.bizCode, q.bizCode));
  if (q.compCode) where.push(eq(compInfoChanges.compCode, q.compCode));
  if (q.compName) {
    const p = likePattern(q.compName);
    where.push(
      or(
        sql`${compInfoChanges.compName} ilike ${p}`,
        sql`(${compInfoChanges.beforeValues} ->> 'compName') ilike ${p}`,
      )!,
    );
  }
  if (q.state) where.push(eq(compInfoChanges.state, q.state));
  if (q.createdStart) where.push(gte(compInfoChanges.createdAt, dayStart(q.createdStart)));
  if (q.createdEnd) where.push(lt(compInfoChanges.createdAt, dayAfter(q.createdEnd)));
  const cond = and(...where)!;
  const rows = await db
    .select({ doc: compInfoChanges, name: users.realName })
    .from(compInfoChanges)
    .leftJoin(users, eq(users.id, compInfoChanges.createdBy))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: compInfoChanges.bizCode,
          createdAt: compInfoChanges.createdAt,
          updatedAt: compInfoChanges.updatedAt,
        },
        [desc(compInfoChanges.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${compInfoChanges} where ${cond}`);
  return page(
    rows.map((r) => toRow(r.doc, r.name)),
    total,
    q,
  );
}

export async function viewInfoChange(ex: Executor, bizCode: string): Promise<InfoChangeView> {
  const [r] = await ex
    .select({ doc: compInfoChanges, name: users.realName })
    .from(compInfoChanges)
    .leftJoin(users, eq(users.id, compInfoChanges.createdBy))
    .where(and(eq(compInfoChanges.bizCode, bizCode), live))
    .limit(1);
  if (!r) throw notFound(WHAT);
  const before = r.doc.beforeValues as CompanyValues;
  const after = valuesOfCompany(r.doc);
  return {
    ...toRow(r.doc, r.name),
    version: r.doc.version,
    reason: r.doc.reason,
    baseVersion: r.doc.baseVersion,
    before,
    after,
    beforeRegion: regionName(before),
    afterRegion: regionName(after),
    approvedAt: r.doc.approvedAt,
  };
}

type HistoryInput = z.output<typeof companyHistoryListSchema>;

/** 企业变更历史 of one customer, newest first, one page (docs/protocol.md "Lists"). */
export async function companyHistoryOf(db: Db, q: HistoryInput): Promise<Page<CompanyHistoryItem>> {
  const where: SQL[] = [eq(companyHistory.compCode, q.compCode)];
  if (q.changeType) where.push(eq(companyHistory.changeType, q.changeType));
  const cond = and(...where)!;
  const rows = await db
    .select({ h: companyHistory, name: users.realName })
    .from(companyHistory)
    .leftJoin(users, eq(users.id, companyHistory.changedBy))
    .where(cond)
    .orderBy(
      ...orderClause(q, { changedAt: companyHistory.changedAt }, [
        desc(companyHistory.changedAt),
        desc(companyHistory.id),
      ]),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${companyHistory} where ${cond}`);
  return page(
    rows.map(({ h, name }) => ({
      id: h.id,
      bizCode: h.bizCode,
      changeType: h.changeType as HistoryChangeType,
      field: h.field,
      fieldLabel: h.field === 'manager' ? '管理员' : (CHANGE_FIELD_LABELS[h.field as ChangeField] ?? h.field),
      oldValue: h.oldValue,
      newValue: h.newValue,
      changedByName: name,
      changedAt: h.changedAt,
    })),
    total,
    q,
  );
}
