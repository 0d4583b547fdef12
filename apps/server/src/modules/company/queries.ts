import { and, asc, desc, eq, gte, ilike, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  type Admission,
  COMPANY_INFO_DICT,
  type CompanyInfoDict,
  type companyListSchema,
  type CompanyRow,
  type CompanyView,
  type CompRole,
  type CompState,
  type CompType,
  type DictItem,
  type Industry,
} from '@portal/contract/company';
import type { Page } from '@portal/contract/api';
import type { Db, Executor } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import { geo } from '../geo';
import { listFiles } from '../files';
import { companies } from './schema';

/*
 * The 企业客户 reads (docs/architecture.md "Modules"): the list and its conditions, one customer,
 * names by code, the views and dictionaries. The writes and the checks before them stay in
 * service.ts.
 */

export type Row = typeof companies.$inferSelect;
export type CompanyListQuery = z.output<typeof companyListSchema>;

/** The document type under which a customer's files are attached (files module). */
export const COMPANY_DOC_TYPE = 'company';
export const WHAT = '企业客户';

export const live = isNull(companies.deletedAt);
const parent = alias(companies, 'parent');

export function regionName(r: Pick<Row, 'provinceCode' | 'cityCode' | 'areaCode'>): string {
  const names = geo().names;
  return [r.provinceCode, r.cityCode, r.areaCode]
    .filter((c): c is string => !!c)
    .map((c) => names.get(c) ?? '')
    .filter((n, i, all) => n && all.indexOf(n) === i)
    .join(' / ');
}

function toRow(r: Row, parentName: string | null): CompanyRow {
  return {
    compCode: r.compCode,
    companyBizCode: r.compCode,
    compName: r.compName,
    usccCode: r.usccCode,
    compType: r.compType as CompType,
    roles: r.roles as CompRole[],
    legalPerson: r.legalPerson,
    regCapital: r.regCapital,
    establishDate: r.establishDate,
    provinceCode: r.provinceCode,
    cityCode: r.cityCode,
    areaCode: r.areaCode,
    regionName: regionName(r),
    address: r.address,
    industry: r.industry as Industry | null,
    contactName: r.contactName,
    contactPhone: r.contactPhone,
    contactEmail: r.contactEmail,
    parentCompCode: r.parentCompCode,
    parentCompName: parentName,
    state: r.state as CompState,
    admission: r.admission as Admission,
    admissionCode: r.admissionCode,
    remark: r.remark,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Business date D as the start of that day in Asia/Shanghai. */
const dayStart = (d: string) => sql`${`${d}T00:00:00+08:00`}::timestamptz`;
const dayAfter = (d: string) => sql`(${`${d}T00:00:00+08:00`}::timestamptz + interval '1 day')`;

/** The list's filters (docs/protocol.md "Lists"): substring on names, exact on codes and states, ranges on dates. */
/** `scope`: the caller's data scope over customers (tableScope). */
function companyWhere(q: Partial<CompanyListQuery>, scope: SQL): SQL {
  const where: SQL[] = [live, scope];
  if (q.compName) where.push(ilike(companies.compName, likePattern(q.compName)));
  if (q.usccCode) where.push(eq(companies.usccCode, q.usccCode.toUpperCase()));
  if (q.compType) where.push(eq(companies.compType, q.compType));
  if (q.role) where.push(sql`${q.role} = any(${companies.roles})`);
  if (q.regionCode)
    where.push(
      or(
        eq(companies.provinceCode, q.regionCode),
        eq(companies.cityCode, q.regionCode),
        eq(companies.areaCode, q.regionCode),
      )!,
    );
  if (q.state) where.push(eq(companies.state, q.state));
  if (q.admission) where.push(eq(companies.admission, q.admission));
  if (q.createdStart) where.push(gte(companies.createdAt, dayStart(q.createdStart)));
  if (q.createdEnd) where.push(lt(companies.createdAt, dayAfter(q.createdEnd)));
  return and(...where)!;
}

const COMPANY_ORDER = {
  compCode: companies.compCode,
  compName: companies.compName,
  regCapital: companies.regCapital,
  establishDate: companies.establishDate,
  createdAt: companies.createdAt,
};

/** One page of the list's rows (filters, sort and scope applied), without the count. */
export async function companyRows(db: Db, q: CompanyListQuery, scope: SQL): Promise<CompanyRow[]> {
  const list = await db
    .select({ c: companies, parentName: parent.compName })
    .from(companies)
    .leftJoin(parent, and(eq(parent.compCode, companies.parentCompCode), isNull(parent.deletedAt)))
    .where(companyWhere(q, scope))
    .orderBy(...orderClause(q, COMPANY_ORDER, [desc(companies.id)]))
    .limit(q.pageSize)
    .offset(offsetOf(q));
  return list.map((r) => toRow(r.c, r.parentName));
}

export async function listCompanies(db: Db, q: CompanyListQuery, scope: SQL): Promise<Page<CompanyRow>> {
  const total = await countOf(db, sql`from ${companies} where ${companyWhere(q, scope)}`);
  return page(await companyRows(db, q, scope), total, q);
}

/** One customer by code, or undefined (other modules: credit, contracts). */
export async function getCustomer(ex: Executor, compCode: string): Promise<CompanyRow | undefined> {
  const [r] = await ex
    .select({ c: companies, parentName: parent.compName })
    .from(companies)
    .leftJoin(parent, and(eq(parent.compCode, companies.parentCompCode), isNull(parent.deletedAt)))
    .where(and(eq(companies.compCode, compCode), live))
    .limit(1);
  return r ? toRow(r.c, r.parentName) : undefined;
}

/** The code of the live company with this 统一社会信用代码, if there is one. */
export async function companyCodeByUscc(ex: Executor, uscc: string): Promise<string | undefined> {
  const [r] = await ex
    .select({ code: companies.compCode })
    .from(companies)
    .where(and(eq(companies.usccCode, uscc), live))
    .limit(1);
  return r?.code;
}

/** Names of customers by code (for lists in other modules), deleted ones included. */
export async function customerNames(ex: Executor, codes: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(codes)].filter(Boolean);
  if (unique.length === 0) return new Map();
  const rows = await ex
    .select({ code: companies.compCode, name: companies.compName })
    .from(companies)
    .where(sql`${companies.compCode} in ${unique}`);
  return new Map(rows.map((r) => [r.code, r.name]));
}

export async function viewCompany(db: Db, compCode: string): Promise<CompanyView> {
  const c = await getCustomer(db, compCode);
  if (!c) throw notFound(WHAT);
  const files = await listFiles(db, COMPANY_DOC_TYPE, compCode);
  return {
    ...c,
    files: files.map((f) => ({
      fileToken: f.fileToken,
      originFileName: f.originFileName,
      size: f.size,
      mime: f.mime,
      createdAt: f.createdAt,
      uploaderName: f.uploaderName,
    })),
  };
}

export async function companyDict(
  db: Db,
  opts: { role?: CompRole | undefined; all?: boolean | undefined; admitted?: boolean | undefined },
): Promise<DictItem[]> {
  const where: SQL[] = [live];
  if (!opts.all) where.push(eq(companies.state, 'enabled'));
  if (opts.admitted) where.push(eq(companies.admission, 'admitted'));
  if (opts.role) where.push(sql`${opts.role} = any(${companies.roles})`);
  return db
    .select({ code: companies.compCode, label: companies.compName })
    .from(companies)
    .where(and(...where))
    .orderBy(asc(companies.compName))
    .limit(5000);
}

export const infoDict = (): CompanyInfoDict => COMPANY_INFO_DICT;

/**
 * Parent / core enterprise lookup by (part of) the name: enabled customers, at most 20, with
 * what a picker needs (code and name) of any organisation's customers.
 */
export async function findSupComp(db: Db, compName: string | undefined) {
  const where: SQL[] = [live, eq(companies.state, 'enabled')];
  if (compName) where.push(ilike(companies.compName, likePattern(compName)));
  return db
    .select({ compCode: companies.compCode, compName: companies.compName })
    .from(companies)
    .where(and(...where))
    .orderBy(asc(companies.compName))
    .limit(20);
}
