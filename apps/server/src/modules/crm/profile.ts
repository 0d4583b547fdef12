import Decimal from 'decimal.js';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import { auditActionLabel, auditEntityLabel, SYSTEM_ACTOR_NAME } from '@portal/contract/audit';
import type { BankAccountView } from '@portal/contract/bank';
import type { FileInfo } from '@portal/contract/files';
import type {
  accountListSchema,
  accountSaveSchema,
  AddView,
  addSaveSchema,
  ApprovalRow,
  approvalListSchema,
  BillView,
  billSaveSchema,
  DesView,
  desSaveSchema,
  HolderType,
} from '@portal/contract/crm';
import type { Db, Executor } from '../../platform/db/client';
import { auditLog, type Actor } from '../../platform/db/audit';
import { runCommand, type CommandWriter } from '../../platform/db/command';
import { badInput, conflict, notFound, STALE_VERSION_MSG } from '../../platform/errors';
import { countOf, offsetOf, page } from '../../platform/http/list';
import type { UsageChecks } from '../../platform/module';
import { deleteAccount, getBankAccount, listAccounts, saveAccount, setDefaultAccount } from '../bank';
import { COMPANY_DOC_TYPE, lockCustomer, requireCustomer } from '../company';
import { listFiles, setDocumentFiles } from '../files';
import { detailChanges } from '../monitor';
import { compAddInfos, compIntros, compInvoiceInfos, compShareholders } from './schema';

type OnePerCustomer = typeof compInvoiceInfos | typeof compIntros | typeof compAddInfos;
type Shareholder = { holderName: string; holderType: string; ratio: string; contribution?: string | null };
const keysOf = <T extends object>(o: T) => Object.keys(o) as (keyof T & string)[];

/**
 * Saves a one-per-customer record (开票信息, 企业介绍, corporationAdd) under the customer's lock:
 * the first save inserts it (no version sent, or 0; a concurrent first save loses on the unique
 * comp_code), later saves send the version they read (409 when stale or missing). Answers
 * whether the record was created or updated.
 */
async function saveOnePerCustomer<T extends OnePerCustomer>(
  tx: Executor,
  w: CommandWriter,
  table: T,
  compCode: string,
  version: number | undefined,
  values: PgUpdateSetSource<T>,
  actor: Actor,
): Promise<{ action: 'create' | 'update'; was: Record<string, unknown> | null }> {
  const t: OnePerCustomer = table;
  const [row] = (await tx.select().from(t).where(eq(t.compCode, compCode)).for('update')) as {
    id: number;
    version: number;
  }[];
  if (!row) {
    if (version !== undefined && version !== 0) throw conflict(STALE_VERSION_MSG);
    await tx
      .insert(t)
      .values({ ...values, compCode, createdBy: actor.userId, updatedBy: actor.userId } as T['$inferInsert']);
    return { action: 'create', was: null };
  }
  // The command's version: none sent answers 409 too.
  await w.update(table, eq(t.id, row.id), values);
  return { action: 'update', was: row };
}

/** The fields of `values` as the record held them before a save (the audit row's before). */
function beforeOf<K extends string>(
  was: Record<string, unknown> | null,
  keys: readonly K[],
): Record<K, unknown> | null {
  return was ? (Object.fromEntries(keys.map((k) => [k, was[k] ?? null])) as Record<K, unknown>) : null;
}

// ---------------------------------------------------------------- 开票信息

export async function viewBill(db: Db, compCode: string): Promise<BillView | null> {
  await requireCustomer(db, compCode);
  const [r] = await db
    .select()
    .from(compInvoiceInfos)
    .where(eq(compInvoiceInfos.compCode, compCode))
    .limit(1);
  return r
    ? {
        compCode: r.compCode,
        invoiceTitle: r.invoiceTitle,
        taxNo: r.taxNo,
        address: r.address,
        phone: r.phone,
        bankName: r.bankName,
        bankAccountNo: r.bankAccountNo,
        remark: r.remark,
        version: r.version,
        updatedAt: r.updatedAt,
      }
    : null;
}

export async function saveBill(db: Db, input: z.output<typeof billSaveSchema>, actor: Actor) {
  const cmd = { entity: 'compInvoice', code: input.compCode, version: input.version };
  return runCommand(db, actor, cmd, async (tx, w) => {
    await lockCustomer(tx, input.compCode);
    const values = {
      invoiceTitle: input.invoiceTitle,
      taxNo: input.taxNo,
      address: input.address ?? null,
      phone: input.phone ?? null,
      bankName: input.bankName,
      bankAccountNo: input.bankAccountNo,
      remark: input.remark ?? null,
    };
    const { action, was } = await saveOnePerCustomer(
      tx,
      w,
      compInvoiceInfos,
      input.compCode,
      input.version,
      values,
      actor,
    );
    await w.audit({ action, detail: { before: beforeOf(was, keysOf(values)), after: values } });
    return { compCode: input.compCode };
  });
}

// ---------------------------------------------------------------- 企业介绍

export async function viewDes(db: Db, compCode: string): Promise<DesView | null> {
  await requireCustomer(db, compCode);
  const [r] = await db.select().from(compIntros).where(eq(compIntros.compCode, compCode)).limit(1);
  return r
    ? {
        compCode: r.compCode,
        intro: r.intro,
        mainBusiness: r.mainBusiness,
        website: r.website,
        version: r.version,
        updatedAt: r.updatedAt,
      }
    : null;
}

export async function saveDes(db: Db, input: z.output<typeof desSaveSchema>, actor: Actor) {
  const cmd = { entity: 'compIntro', code: input.compCode, version: input.version };
  return runCommand(db, actor, cmd, async (tx, w) => {
    await lockCustomer(tx, input.compCode);
    const values = {
      intro: input.intro,
      mainBusiness: input.mainBusiness ?? null,
      website: input.website ?? null,
    };
    const { action, was } = await saveOnePerCustomer(
      tx,
      w,
      compIntros,
      input.compCode,
      input.version,
      values,
      actor,
    );
    // The introduction itself is long: its length stands for it.
    const words = (v: { mainBusiness: unknown; website: unknown; intro: unknown }) => ({
      mainBusiness: v.mainBusiness ?? null,
      website: v.website ?? null,
      introLength: typeof v.intro === 'string' ? v.intro.length : 0,
    });
    await w.audit({
      action,
      detail: { before: was && words(was as Parameters<typeof words>[0]), after: words(values) },
    });
    return { compCode: input.compCode };
  });
}

// ---------------------------------------------------------------- corporationAdd

export async function viewAdd(db: Db, compCode: string): Promise<AddView | null> {
  await requireCustomer(db, compCode);
  const [r] = await db.select().from(compAddInfos).where(eq(compAddInfos.compCode, compCode)).limit(1);
  if (!r) return null;
  const holders = await db
    .select()
    .from(compShareholders)
    .where(eq(compShareholders.compCode, compCode))
    .orderBy(asc(compShareholders.sort), asc(compShareholders.id));
  return {
    compCode: r.compCode,
    actualController: r.actualController,
    controllerIdNo: r.controllerIdNo,
    staffCount: r.staffCount,
    businessScope: r.businessScope,
    shareholders: holders.map((h) => ({
      holderName: h.holderName,
      holderType: h.holderType as HolderType,
      ratio: h.ratio,
      contribution: h.contribution,
    })),
    version: r.version,
    updatedAt: r.updatedAt,
  };
}

export async function saveAdd(db: Db, input: z.output<typeof addSaveSchema>, actor: Actor) {
  const names = input.shareholders.map((h) => h.holderName);
  if (new Set(names).size !== names.length) throw badInput('股东名称不能重复');
  const total = input.shareholders.reduce((s, h) => s.plus(h.ratio), new Decimal(0));
  if (total.gt(100)) throw badInput(`持股比例合计${total.toFixed()}%，不能超过100%`);
  const cmd = { entity: 'compAddInfo', code: input.compCode, version: input.version };
  return runCommand(db, actor, cmd, async (tx, w) => {
    await lockCustomer(tx, input.compCode);
    const values = {
      actualController: input.actualController,
      controllerIdNo: input.controllerIdNo ?? null,
      staffCount: input.staffCount ?? null,
      businessScope: input.businessScope ?? null,
    };
    const { action, was } = await saveOnePerCustomer(
      tx,
      w,
      compAddInfos,
      input.compCode,
      input.version,
      values,
      actor,
    );
    // The shareholders are replaced under the lock of the customer's comp_add_infos row.
    const holdersWere = await tx
      .delete(compShareholders)
      .where(eq(compShareholders.compCode, input.compCode))
      .returning();
    const holders = (list: readonly Shareholder[]) =>
      list.map((h) => ({
        holderName: h.holderName,
        holderType: h.holderType as HolderType,
        // As a number reads (30, not 30.00), so the stored and the sent figure compare equal.
        ratio: new Decimal(h.ratio).toString(),
        contribution: h.contribution ?? null,
      }));
    if (input.shareholders.length)
      await tx.insert(compShareholders).values(
        input.shareholders.map((h, i) => ({
          compCode: input.compCode,
          sort: i,
          holderName: h.holderName,
          holderType: h.holderType,
          ratio: h.ratio,
          contribution: h.contribution ?? null,
          createdBy: actor.userId,
        })),
      );
    await w.audit({
      action,
      detail: {
        before: was && {
          ...beforeOf(was, keysOf(values)),
          shareholders: holders(holdersWere.sort((a, b) => a.sort - b.sort || a.id - b.id)),
        },
        after: { ...values, shareholders: holders(input.shareholders) },
      },
    });
    return { compCode: input.compCode };
  });
}

// ---------------------------------------------------------------- 账户信息 (bank module)

export async function listCustomerAccounts(
  db: Db,
  q: z.output<typeof accountListSchema>,
): Promise<Page<BankAccountView>> {
  await requireCustomer(db, q.compCode);
  const { compCode, ...paging } = q;
  return listAccounts(db, { ...paging, ownerType: 'customer', ownerCode: compCode });
}

/** The account must be one of this customer's (an edit tab never reaches other owners' accounts). */
async function requireOwnAccount(ex: Executor, compCode: string, bizCode: string) {
  const a = await getBankAccount(ex, bizCode);
  if (!a || a.ownerType !== 'customer' || a.ownerCode !== compCode) throw notFound('银行账户');
  return a;
}

export async function saveCustomerAccount(db: Db, input: z.output<typeof accountSaveSchema>, actor: Actor) {
  if (input.bizCode) await requireOwnAccount(db, input.compCode, input.bizCode);
  else await requireCustomer(db, input.compCode);
  const { compCode, ...rest } = input;
  return saveAccount(db, { ...rest, ownerType: 'customer', ownerCode: compCode }, actor);
}

export async function deleteCustomerAccount(
  db: Db,
  compCode: string,
  bizCode: string,
  actor: Actor,
  usage: UsageChecks,
) {
  await requireOwnAccount(db, compCode, bizCode);
  await deleteAccount(db, bizCode, actor, usage);
}

export async function setCustomerDefaultAccount(db: Db, compCode: string, bizCode: string, actor: Actor) {
  await requireOwnAccount(db, compCode, bizCode);
  await setDefaultAccount(db, bizCode, actor);
}

// ---------------------------------------------------------------- 资料文件 (files module)

export async function customerFiles(db: Db, compCode: string): Promise<FileInfo[]> {
  await requireCustomer(db, compCode);
  return listFiles(db, COMPANY_DOC_TYPE, compCode);
}

export async function saveCustomerFiles(
  db: Db,
  compCode: string,
  fileTokens: readonly string[],
  actor: Actor,
) {
  await db.transaction(async (tx) => {
    await lockCustomer(tx, compCode);
    await setDocumentFiles(tx, { docType: COMPANY_DOC_TYPE, docCode: compCode, fileTokens, actor });
  });
  return { compCode };
}

// ---------------------------------------------------------------- 审核信息

const ENTITY_LABELS: Record<string, string> = {
  company: '企业基本信息',
  compUser: '企业用户',
  compRole: '企业角色',
  compDept: '组织架构',
  compInvoice: '开票信息',
  compIntro: '企业介绍',
  compAddInfo: '股东及实际控制人',
  compRelation: '企业关系',
  bankAccount: '银行账户',
  bankAccountUsers: '账户授权用户',
};
/** Audit entities whose entity code is the customer's compCode. */
const CUSTOMER_KEYED = [
  'company',
  'compRole',
  'compDept',
  'compInvoice',
  'compIntro',
  'compAddInfo',
  'compRelation',
  'bankAccountUsers',
];
const ACTION_LABELS: Record<string, string> = {
  create: '新增',
  update: '修改',
  delete: '删除',
  enable: '启用',
  disable: '停用',
  audit: '审核通过',
  unAudit: '审核驳回',
  setDefault: '设为默认',
  attachFiles: '上传资料',
  removeFiles: '移除资料',
};

/**
 * 审核信息 of the customer view. The workflow's instances store only doc type, doc code and a
 * free-text subject (no customer), so they cannot be tied to a customer soundly from here; the
 * tab shows the customer's own recorded history instead (audit log): the customer row, its
 * sub-pages (entity code = compCode), its users' registration checks and its bank accounts.
 */
export async function customerHistory(
  db: Db,
  q: z.output<typeof approvalListSchema>,
): Promise<Page<ApprovalRow>> {
  await requireCustomer(db, q.compCode);
  // Entity codes of different kinds can be equal (all are 12-digit sequences): match by kind.
  const cond = sql`((${auditLog.entity} in ${CUSTOMER_KEYED} and ${auditLog.entityCode} = ${q.compCode})
    or (${auditLog.entity} = 'compUser' and ${auditLog.detail}->>'compCode' = ${q.compCode})
    or (${auditLog.entity} = 'bankAccount' and ${auditLog.entityCode} in
        (select biz_code from bank_accounts where owner_type = 'customer' and owner_code = ${q.compCode})))`;
  const rows = await db
    .select()
    .from(auditLog)
    .where(cond)
    .orderBy(q.order === 'asc' ? asc(auditLog.id) : desc(auditLog.id))
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${auditLog} where ${cond}`);
  const words = await detailChanges(db, rows);
  return page(
    rows.map((r, i) => {
      const { hasBefore, changes } = words[i]!;
      const comment = isRecord(r.detail) && typeof r.detail.comment === 'string' ? r.detail.comment : null;
      return {
        id: r.id,
        at: r.at,
        actorName: r.actorName === 'system' ? SYSTEM_ACTOR_NAME : r.actorName,
        entity: r.entity,
        entityLabel: ENTITY_LABELS[r.entity] ?? auditEntityLabel(r.entity) ?? r.entity,
        action: r.action,
        actionLabel: ACTION_LABELS[r.action] ?? auditActionLabel(r.action) ?? r.action,
        comment,
        hasBefore,
        changes,
      };
    }),
    total,
    q,
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
