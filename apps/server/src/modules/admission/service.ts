import { and, desc, eq, gte, ilike, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  KYC_FILES,
  type admissionListSchema,
  type AdmissionRow,
  type admissionSaveSchema,
  type AdmissionView,
  type KycFile,
} from '@portal/contract/admission';
import { accountLabel } from '@portal/contract/bank';
import type { DocState } from '@portal/contract/workflow';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { users } from '../../platform/auth/schema';
import { admitCustomer, lockCustomer } from '../company';
import { companies } from '../company/schema';
import { getBankAccount, requireBankAccount } from '../bank';
import { fileNamesByToken, setDocumentFiles } from '../files';
import type { Written, WorkflowDoc } from '../workflow';
import { custAdmissions } from './schema';

export const ADMISSION_TYPE = 'custAdmission';
const WHAT = '客户准入单';

type Admission = typeof custAdmissions.$inferSelect;
type SaveInput = z.output<typeof admissionSaveSchema>;
type ListInput = z.output<typeof admissionListSchema>;

const live = isNull(custAdmissions.deletedAt);

export async function findAdmission(ex: Executor, bizCode: string): Promise<Admission> {
  const [row] = await ex
    .select()
    .from(custAdmissions)
    .where(and(eq(custAdmissions.bizCode, bizCode), live))
    .limit(1);
  if (!row) throw notFound(WHAT);
  return row;
}

/** The customer's open (not approved) 准入单 other than `except`, if any. */
async function openAdmission(ex: Executor, compCode: string, except?: string): Promise<string | null> {
  const [row] = await ex
    .select({ bizCode: custAdmissions.bizCode })
    .from(custAdmissions)
    .where(
      and(
        eq(custAdmissions.compCode, compCode),
        live,
        ne(custAdmissions.state, 'approved'),
        except ? ne(custAdmissions.bizCode, except) : undefined,
      ),
    )
    .limit(1);
  return row?.bizCode ?? null;
}

const openConflict = (code: string) => conflict(`该企业客户已有未完成的客户准入单 ${code}，请先处理该准入单`);

/**
 * Two first saves racing past the check above meet the partial unique index cust_admissions_open_key
 * (one open 准入单 per customer): the loser's transaction has rolled back; answer it in words.
 */
export function openIndexConflict(err: unknown): never {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const x = e as { code?: unknown; constraint?: unknown; message?: unknown };
    const named =
      x.constraint === 'cust_admissions_open_key' ||
      (typeof x.message === 'string' && x.message.includes('cust_admissions_open_key'));
    if (x.code === '23505' && named) throw conflict('该企业客户已有未完成的客户准入单，请先处理该准入单');
  }
  throw err;
}

/** Customer usage check (company/del): its open 客户准入单. */
export async function openAdmissionsUsage(ex: Executor, compCode: string): Promise<string | null> {
  const open = await openAdmission(ex, compCode);
  return open ? `存在未完成的客户准入单 ${open}` : null;
}

/**
 * The customer a 准入单 names, share-locked until commit (a deletion waits and then sees the
 * 准入单): enabled and not yet admitted.
 */
async function pendingCustomer(tx: Executor, compCode: string) {
  const c = await lockCustomer(tx, compCode, { label: '企业客户' });
  if (c.admission === 'admitted') throw conflict(`企业客户「${c.compName}」已准入，无需再办理客户准入`);
  return c;
}

/** Writes the draft (the pipeline checks it editable, audits, submits and answers): answers its code. */
export async function saveAdmission(tx: Tx, body: SaveInput, actor: Actor): Promise<Written> {
  const c = await pendingCustomer(tx, body.compCode);
  await requireBankAccount(tx, body.bankBizCode, {
    label: '银行账户',
    ownerType: 'customer',
    ownerCode: body.compCode,
  });
  const columns = {
    baseVersion: c.version,
    legalIdNo: body.legalIdNo,
    controllerName: body.controllerName,
    bankBizCode: body.bankBizCode,
    licenseFile: body.licenseFile,
    legalIdFile: body.legalIdFile,
    controllerFile: body.controllerFile,
    bankProofFile: body.bankProofFile,
    remark: body.remark ?? null,
  };
  let code: string;
  if (body.bizCode) {
    const doc = await findAdmission(tx, body.bizCode);
    if (doc.compCode !== body.compCode) throw badInput('准入单不能改换企业客户');
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      custAdmissions,
      eq(custAdmissions.id, doc.id),
      body.version,
      columns,
      actor.userId,
      WHAT,
    );
    code = doc.bizCode;
  } else {
    const open = await openAdmission(tx, body.compCode);
    if (open) throw openConflict(open);
    code = await nextCode(tx, 'cust_admission');
    await tx.insert(custAdmissions).values({
      ...columns,
      bizCode: code,
      compCode: body.compCode,
      createdBy: actor.userId,
      updatedBy: actor.userId,
    });
  }
  await setDocumentFiles(tx, {
    docType: ADMISSION_TYPE,
    docCode: code,
    fileTokens: KYC_FILES.map((f) => body[f]),
    actor,
  });
  return { code, detail: { compCode: body.compCode, compName: c.compName } };
}

/**
 * Before a submission: the customer is still pending and enabled; the 准入单 takes the customer's
 * version now, so that approval admits it only on the data the checker sees.
 */
export async function admissionSubmission(tx: Tx, doc: Admission): Promise<{ subject: string }> {
  const open = await openAdmission(tx, doc.compCode, doc.bizCode);
  if (open) throw openConflict(open);
  const c = await pendingCustomer(tx, doc.compCode);
  if (c.state !== 'enabled') throw conflict(`企业客户「${c.compName}」已停用，不能提交准入`);
  await tx.update(custAdmissions).set({ baseVersion: c.version }).where(eq(custAdmissions.id, doc.id));
  return { subject: `客户准入 ${c.compName}` };
}

/** Workflow hook, in the approving transaction: the customer becomes admitted (company module). */
export async function applyAdmission(tx: Tx, wf: WorkflowDoc, actor: Actor): Promise<void> {
  const doc = await findAdmission(tx, wf.code);
  await admitCustomer(tx, doc.compCode, doc.baseVersion, doc.bizCode, actor);
}

export async function deleteAdmission(tx: Tx, bizCode: string, actor: Actor): Promise<void> {
  await tx
    .update(custAdmissions)
    .set({
      deletedAt: sql`now()`,
      updatedBy: actor.userId,
      updatedAt: sql`now()`,
      version: sql`${custAdmissions.version} + 1`,
    })
    .where(and(eq(custAdmissions.bizCode, bizCode), live));
}

// ----- reading ---------------------------------------------------------------------------------

const dayStart = (d: string) => sql`${`${d}T00:00:00+08:00`}::timestamptz`;
const dayAfter = (d: string) => sql`(${`${d}T00:00:00+08:00`}::timestamptz + interval '1 day')`;

function selection() {
  return {
    doc: custAdmissions,
    createdByName: users.realName,
    compName: companies.compName,
    usccCode: companies.usccCode,
    legalPerson: companies.legalPerson,
  };
}

function joined(ex: Executor) {
  return ex
    .select(selection())
    .from(custAdmissions)
    .leftJoin(users, eq(users.id, custAdmissions.createdBy))
    .leftJoin(companies, eq(companies.compCode, custAdmissions.compCode));
}

function toRow(r: {
  doc: Admission;
  createdByName: string | null;
  compName: string | null;
  usccCode: string | null;
  legalPerson: string | null;
}): AdmissionRow {
  return {
    bizCode: r.doc.bizCode,
    compCode: r.doc.compCode,
    compName: r.compName ?? '',
    usccCode: r.usccCode ?? '',
    legalPerson: r.legalPerson ?? '',
    state: r.doc.state as DocState,
    createdByName: r.createdByName,
    createdAt: r.doc.createdAt,
    updatedAt: r.doc.updatedAt,
  };
}

/** `scope`: the caller's data scope (tableScope). */
export async function listAdmissions(db: Db, q: ListInput, scope: SQL): Promise<Page<AdmissionRow>> {
  const where: SQL[] = [live, scope];
  if (q.bizCode) where.push(eq(custAdmissions.bizCode, q.bizCode));
  if (q.compCode) where.push(eq(custAdmissions.compCode, q.compCode));
  if (q.compName) where.push(ilike(companies.compName, likePattern(q.compName)));
  if (q.state) where.push(eq(custAdmissions.state, q.state));
  if (q.createdStart) where.push(gte(custAdmissions.createdAt, dayStart(q.createdStart)));
  if (q.createdEnd) where.push(lt(custAdmissions.createdAt, dayAfter(q.createdEnd)));
  const cond = and(...where)!;
  const rows = await joined(db)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: custAdmissions.bizCode,
          createdAt: custAdmissions.createdAt,
          updatedAt: custAdmissions.updatedAt,
        },
        [desc(custAdmissions.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${custAdmissions} left join ${companies} on ${companies.compCode} = ${custAdmissions.compCode} where ${cond}`,
  );
  return page(rows.map(toRow), total, q);
}

export async function viewAdmission(ex: Executor, bizCode: string): Promise<AdmissionView> {
  const [r] = await joined(ex)
    .where(and(eq(custAdmissions.bizCode, bizCode), live))
    .limit(1);
  if (!r) throw notFound(WHAT);
  const doc = r.doc;
  const account = await getBankAccount(ex, doc.bankBizCode);
  const tokens = KYC_FILES.map((f) => doc[f]).filter((t): t is string => t !== null);
  const names = await fileNamesByToken(ex, tokens);
  const files = Object.fromEntries(
    KYC_FILES.map((f) => {
      const token = doc[f];
      const name = token === null ? undefined : names.get(token);
      return [f, token === null || name === undefined ? null : { fileToken: token, originFileName: name }];
    }),
  ) as Record<KycFile, AdmissionView['files'][KycFile]>;
  return {
    ...toRow(r),
    version: doc.version,
    legalIdNo: doc.legalIdNo,
    controllerName: doc.controllerName,
    bankBizCode: doc.bankBizCode,
    bankLabel: account ? accountLabel(account) : '',
    files,
    remark: doc.remark,
    approvedAt: doc.approvedAt,
  };
}
