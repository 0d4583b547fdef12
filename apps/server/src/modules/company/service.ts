import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { NOT_ADMITTED } from '@portal/contract/admission';
import { AT_INFO_FIELDS, CHANGE_FIELD_LABELS } from '@portal/contract/crm-change';
import Decimal from 'decimal.js';
import {
  type companyAddSchema,
  type CompanyRow,
  type companyUpdateSchema,
  type CompRole,
  type CompState,
  type UsccCheckResult,
} from '@portal/contract/company';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { registryKey, UsageChecks } from '../../platform/module';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { changedFields, runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { geo } from '../geo';
import { attachFiles, setDocumentFiles } from '../files';
import { companies } from './schema';
import { COMPANY_DOC_TYPE, type Row, WHAT, getCustomer, live } from './queries';
type AddInput = z.output<typeof companyAddSchema>;
type UpdateInput = z.output<typeof companyUpdateSchema>;

/**
 * Modules whose records refer to customers (bank accounts, credit, contracts) register here, so a
 * customer in use cannot be deleted. A check answers why the customer is in use, or null.
 */
export const COMPANY_USAGE = registryKey('company.customerUsage', () => new UsageChecks());

/** A live customer by code; 404 (企业客户) otherwise. */
export async function requireCustomer(ex: Executor, compCode: string): Promise<CompanyRow> {
  const c = await getCustomer(ex, compCode);
  if (!c) throw notFound(WHAT);
  return c;
}

/**
 * Inside a transaction that writes records of a customer (its users, departments, sub-pages):
 * the live customer row, held with FOR SHARE until commit, so a concurrent delete (FOR UPDATE,
 * usage checks) waits and then sees the new records. Without `active`: 404 (企业客户) when it
 * does not exist; with it: requireActiveCustomer's 400 answers.
 */
export async function lockCustomer(
  tx: Executor,
  compCode: string,
  active?: { label?: string; role?: CompRole },
): Promise<CompanyRow> {
  await tx
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.compCode, compCode), live))
    .for('share');
  return active ? requireActiveCustomer(tx, compCode, active) : requireCustomer(tx, compCode);
}

/**
 * A customer a new document may refer to: it exists and is enabled (and holds `role` when given).
 * Throws 400 naming the field otherwise. Call inside the document's transaction.
 */
/**
 * Writes an approved information change (企业信息变更) onto the customer, in the caller's
 * transaction: false, and nothing written, when the row moved on from `baseVersion`.
 */
export async function applyCompanyValues(
  tx: Tx,
  id: number,
  baseVersion: number,
  values: Partial<typeof companies.$inferInsert>,
  actor: Actor,
): Promise<boolean> {
  const res = await tx
    .update(companies)
    .set({
      ...values,
      version: sql`${companies.version} + 1`,
      updatedAt: sql`now()`,
      updatedBy: actor.userId,
    })
    .where(and(eq(companies.id, id), eq(companies.version, baseVersion)))
    .returning({ id: companies.id });
  return res.length === 1;
}

export async function requireActiveCustomer(
  ex: Executor,
  compCode: string,
  opts: { label?: string; role?: CompRole; admitted?: boolean } = {},
): Promise<CompanyRow> {
  const label = opts.label ?? '客户';
  const c = await getCustomer(ex, compCode);
  if (!c) throw badInput(`${label}不存在`);
  if (c.state !== 'enabled') throw badInput(`${label}「${c.compName}」已停用`);
  if (opts.role && !c.roles.includes(opts.role))
    throw badInput(`${label}「${c.compName}」不具备所需的客户角色`);
  if (opts.admitted && c.admission !== 'admitted') throw conflict(NOT_ADMITTED(label, c.compName));
  return c;
}

/**
 * The customer that holds a credit or a contract (the seller, never the debtor): enabled and
 * admitted (客户准入, docs/admission.md); 409 naming it otherwise. Its row is share-locked until the
 * transaction ends, so an admission cannot be undone under a credit or contract being written.
 */
export async function requireAdmittedCustomer(
  tx: Executor,
  compCode: string,
  label = '客户',
): Promise<CompanyRow> {
  await tx
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.compCode, compCode), live))
    .for('share');
  return requireActiveCustomer(tx, compCode, { label, admitted: true });
}

/**
 * Workflow hook of an approved 客户准入单 (modules/admission), in the approving transaction: the
 * customer becomes admitted, but only while it is pending and still at `baseVersion` (the data the
 * checker saw); 409 otherwise, and everything rolls back.
 */
export async function admitCustomer(
  tx: Tx,
  compCode: string,
  baseVersion: number,
  admissionCode: string,
  actor: Actor,
): Promise<void> {
  await runCommand(tx, actor, { entity: 'company', action: 'admit', code: compCode }, async (_tx, w) => {
    const [row] = await tx
      .select()
      .from(companies)
      .where(and(eq(companies.compCode, compCode), live))
      .for('update');
    if (!row) throw conflict('企业客户不存在或已删除，不能准入');
    if (row.admission === 'admitted') throw conflict(`企业客户「${row.compName}」已准入`);
    // The version the checker saw, with its own message (the row is locked, so this is the check).
    if (row.version !== baseVersion)
      throw conflict(`企业客户「${row.compName}」的信息在准入单提交后已被修改，请驳回后重新提交`);
    await w.touch(companies, eq(companies.id, row.id), {
      admission: 'admitted',
      admittedAt: sql`now()`,
      admissionCode,
      updatedBy: actor.userId || null,
    });
    await w.audit({ detail: { admissionCode } });
  });
}

export async function checkUscc(
  ex: Executor,
  usccCode: string,
  exceptCompCode?: string,
): Promise<UsccCheckResult> {
  const where: SQL[] = [live, eq(companies.usccCode, usccCode)];
  if (exceptCompCode) where.push(ne(companies.compCode, exceptCompCode));
  const [hit] = await ex
    .select({ compCode: companies.compCode, compName: companies.compName })
    .from(companies)
    .where(and(...where))
    .limit(1);
  return hit ? { exists: true, compCode: hit.compCode, compName: hit.compName } : { exists: false };
}

/** Province, city and district must exist and nest (GB/T 2260 data of the geo module). */
function checkRegion(v: {
  provinceCode: string;
  cityCode?: string | undefined;
  areaCode?: string | undefined;
}) {
  const g = geo();
  if (!g.provinces.some((p) => p.code === v.provinceCode)) throw badInput('所在省份不存在');
  if (v.cityCode) {
    if (!(g.children.get(v.provinceCode) ?? []).some((c) => c.code === v.cityCode))
      throw badInput('所在城市不属于所选省份');
  } else if (v.areaCode) throw badInput('请先选择所在城市');
  if (v.areaCode && v.cityCode && !(g.children.get(v.cityCode) ?? []).some((a) => a.code === v.areaCode))
    throw badInput('所在区县不属于所选城市');
}

async function checkParent(tx: Executor, parentCompCode: string | undefined, self: string | undefined) {
  if (!parentCompCode) return;
  if (parentCompCode === self) throw badInput('上级企业不能是本企业');
  const [p] = await tx
    .select({ code: companies.compCode })
    .from(companies)
    .where(and(eq(companies.compCode, parentCompCode), live))
    .limit(1);
  if (!p) throw badInput('上级企业不存在');
  if (!self) return;
  // Walk up from the new parent: meeting ourselves would make a cycle.
  let at: string | null = parentCompCode;
  for (let depth = 0; at && depth < 100; depth++) {
    if (at === self) throw badInput('上级企业不能是本企业的下级企业');
    const [up]: { up: string | null }[] = await tx
      .select({ up: companies.parentCompCode })
      .from(companies)
      .where(and(eq(companies.compCode, at), live))
      .limit(1);
    at = up?.up ?? null;
  }
}

function values(input: AddInput) {
  return {
    compName: input.compName,
    usccCode: input.usccCode,
    compType: input.compType,
    roles: input.roles,
    legalPerson: input.legalPerson,
    regCapital: input.regCapital,
    establishDate: input.establishDate ?? null,
    provinceCode: input.provinceCode,
    cityCode: input.cityCode ?? null,
    areaCode: input.areaCode ?? null,
    address: input.address ?? null,
    industry: input.industry ?? null,
    contactName: input.contactName ?? null,
    contactPhone: input.contactPhone ?? null,
    contactEmail: input.contactEmail ?? null,
    parentCompCode: input.parentCompCode ?? null,
    remark: input.remark ?? null,
  };
}

async function ensureUsccFree(tx: Executor, usccCode: string, self?: string) {
  const dup = await checkUscc(tx, usccCode, self);
  if (dup.exists) throw conflict(`统一社会信用代码已被企业「${dup.compName}」使用`);
}

/**
 * An admitted customer's 认证信息 (name, USCC, legal person, capital, …) changes only through an
 * approved 企业信息变更 (docs/admission.md): the edit form may change the rest.
 */
function refuseLegalChange(before: Row, v: ReturnType<typeof values>): void {
  const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');
  const changed = AT_INFO_FIELDS.filter((f) =>
    f === 'regCapital'
      ? new Decimal(before.regCapital).cmp(new Decimal(v.regCapital)) !== 0
      : !same(before[f], v[f]),
  );
  if (changed.length > 0)
    throw conflict(
      `企业客户「${before.compName}」已准入，${changed.map((f) => CHANGE_FIELD_LABELS[f]).join('、')}的修改请通过企业信息变更办理`,
    );
}

export async function addCompany(db: Db, input: AddInput, actor: Actor): Promise<{ compCode: string }> {
  checkRegion(input);
  return runCommand(db, actor, { entity: 'company', action: 'create' }, async (tx, w) => {
    await ensureUsccFree(tx, input.usccCode);
    await checkParent(tx, input.parentCompCode, undefined);
    const compCode = await nextCode(tx, 'comp');
    const v = values(input);
    await tx.insert(companies).values({ ...v, compCode, createdBy: actor.userId, updatedBy: actor.userId });
    if (input.fileTokens?.length)
      await attachFiles(tx, {
        docType: COMPANY_DOC_TYPE,
        docCode: compCode,
        fileTokens: input.fileTokens,
        actor,
      });
    await w.audit({ code: compCode, detail: v });
    return { compCode };
  });
}

export async function updateCompany(db: Db, input: UpdateInput, actor: Actor): Promise<{ compCode: string }> {
  checkRegion(input);
  const cmd = {
    entity: 'company',
    action: 'update',
    code: input.compCode,
    version: input.version,
    what: WHAT,
  };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const where = and(eq(companies.compCode, input.compCode), live)!;
    const [before] = await tx.select().from(companies).where(where).limit(1);
    if (!before) throw notFound(WHAT);
    const v = values(input);
    if (before.admission === 'admitted') refuseLegalChange(before, v);
    await ensureUsccFree(tx, input.usccCode, input.compCode);
    await checkParent(tx, input.parentCompCode, input.compCode);
    await w.update(companies, where, v);
    if (input.fileTokens)
      await setDocumentFiles(tx, {
        docType: COMPANY_DOC_TYPE,
        docCode: input.compCode,
        fileTokens: input.fileTokens,
        actor,
      });
    await w.audit({ detail: changedFields(before, v) });
    return { compCode: input.compCode };
  });
}

export async function setCompanyState(
  db: Db,
  compCode: string,
  state: CompState,
  actor: Actor,
): Promise<void> {
  const cmd = { entity: 'company', action: state === 'enabled' ? 'enable' : 'disable', code: compCode };
  await runCommand(db, actor, cmd, async (tx, w) => {
    const [row] = await tx
      .select()
      .from(companies)
      .where(and(eq(companies.compCode, compCode), live))
      .for('update');
    if (!row) throw notFound(WHAT);
    if (row.state === state)
      throw conflict(state === 'enabled' ? '该企业客户已是启用状态' : '该企业客户已是停用状态');
    await w.touch(companies, eq(companies.id, row.id), { state });
    await w.audit();
  });
}

export async function deleteCompany(
  db: Db,
  compCode: string,
  actor: Actor,
  usage: UsageChecks,
): Promise<void> {
  await runCommand(db, actor, { entity: 'company', action: 'delete', code: compCode }, async (tx, w) => {
    const [row] = await tx
      .select()
      .from(companies)
      .where(and(eq(companies.compCode, compCode), live))
      .for('update');
    if (!row) throw notFound(WHAT);
    const [child] = await tx
      .select({ name: companies.compName })
      .from(companies)
      .where(and(eq(companies.parentCompCode, compCode), live))
      .limit(1);
    if (child) throw conflict(`该企业是「${child.name}」的上级企业，不能删除`);
    const reasons = await usage.all(tx, compCode);
    if (reasons.length) throw conflict(`该企业客户正在使用中，不能删除：${reasons.join('；')}`);
    await w.touch(companies, eq(companies.id, row.id), { deletedAt: sql`now()` });
    await w.audit({ detail: { compName: row.compName, usccCode: row.usccCode } });
  });
}
