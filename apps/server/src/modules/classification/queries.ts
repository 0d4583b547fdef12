import Decimal from 'decimal.js';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import {
  ASSET_CLASSES,
  type AssetClass,
  type ClassAdjRow,
  type ClassAdjView,
  type ClassListFilters,
  type ClassMigration,
  type ClassRow,
  type MigrationFrom,
  type MigrationTo,
  type classAdjListSchema,
  type classListSchema,
} from '@portal/contract/classification';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { queryRows, type Executor } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, page } from '../../platform/http/list';
import { scopeOf } from '../contract';
import { classAdjustments } from './schema';

/*
 * The 五级分类 reads (docs/classification.md): the class of a contract on a date, the list and its
 * export batches, the distribution and the migration between two month-ends, the 分类调整单 list
 * and views. The day-end classification and the adjustments' writes stay in service.ts.
 */

export const WHAT = '分类调整单';
const isClass = (v: unknown): v is AssetClass => ASSET_CLASSES.includes(v as AssetClass);
export const asClass = (v: unknown): AssetClass | null => (isClass(v) ? v : null);

/**
 * A contract's row of contract_classes in force on `asOf`: its latest on or before that date
 * (docs/classification.md "Proposal"), as a LATERAL row source for `left join … as cl on true`
 * (contract_id, business_date, overdue_days, proposed_class, asset_class, adjustment_id). One
 * primary-key probe per contract, however long the history.
 */
export function classAsOf(contractId: SQL, asOf: string): SQL {
  return sql`lateral (select cc.contract_id, cc.business_date, cc.overdue_days, cc.proposed_class,
                             cc.asset_class, cc.adjustment_id
                        from contract_classes cc
                       where cc.contract_id = ${contractId} and cc.business_date <= ${asOf}::date
                       order by cc.business_date desc limit 1)`;
}

// ---- the 五级分类 list

const LIST_SORTS: Record<string, string> = {
  overdueDays: 'overdue_days',
  contractNo: '"contractNo"',
  principalOutstanding: 'principal_open',
};

/**
 * The 五级分类 list's filters as conditions over `contracts` and its class row `cl` (classAsOf):
 * shared by the list, its export and nothing else, so that the file holds what the screen lists.
 */
function listConds(q: ClassListFilters): SQL[] {
  const conds: SQL[] = [];
  if (q.contBizCode) conds.push(sql`contracts.biz_code = ${q.contBizCode}`);
  if (q.contractNo) conds.push(sql`contracts.contract_no ilike ${likePattern(q.contractNo)}`);
  if (q.custName) conds.push(sql`contracts.cust_name ilike ${likePattern(q.custName)}`);
  if (q.assetClass) conds.push(sql`cl.asset_class = ${q.assetClass}`);
  if (q.proposedClass) conds.push(sql`cl.proposed_class = ${q.proposedClass}`);
  if (q.adjusted === 'yes') conds.push(sql`cl.adjustment_id is not null`);
  if (q.adjusted === 'no') conds.push(sql`cl.adjustment_id is null`);
  return conds;
}

/**
 * The live contracts the user may see, each with its class row in force on the business date
 * `today` (alias `cl`, none when no day-end has classified it) and its approved adjustment (`ca`):
 * the rows of the 五级分类 list, its export and the distribution of the business date.
 */
function liveClassFrom(user: ScopeUser, today: string, more: readonly SQL[] = []): SQL {
  const conds: SQL[] = [
    sql`contracts.deleted_at is null`,
    sql`contracts.status = 'effective'`,
    sql`contracts.loan_state = 'loaned'`,
    scopeOf(user),
    ...more,
  ];
  return sql`from contracts left join ${classAsOf(sql`contracts.id`, today)} as cl on true
    left join class_adjustments ca on ca.id = cl.adjustment_id
    where ${sql.join(conds, sql` and `)}`;
}

interface RawClassRow {
  id: number;
  contBizCode: string;
  contractNo: string;
  custName: string;
  classDate: string | null;
  overdue_days: number | null;
  proposed_class: string | null;
  asset_class: string | null;
  adjBizCode: string | null;
  principal_open: string;
  provision: string;
  openAdjBizCode: string | null;
}

/** The columns of a list row over liveClassFrom. */
const ROW_COLUMNS = sql`contracts.id::int as id, contracts.biz_code as "contBizCode", contracts.contract_no as "contractNo",
    contracts.cust_name as "custName", to_char(cl.business_date, 'YYYY-MM-DD') as "classDate",
    cl.overdue_days, cl.proposed_class, cl.asset_class, ca.biz_code as "adjBizCode",
    contracts.principal_open::text as principal_open,
    (select coalesce(sum(l.credit - l.debit), 0)::text from voucher_lines l
      where l.role = 'badDebtReserve' and l.contract_no = contracts.contract_no) as provision,
    (select o.biz_code from class_adjustments o where o.contract_id = contracts.id
       and o.deleted_at is null and o.state <> 'approved') as "openAdjBizCode"`;

const toClassRow = (r: RawClassRow): ClassRow => ({
  contBizCode: r.contBizCode,
  contractNo: r.contractNo,
  custName: r.custName,
  classDate: r.classDate,
  overdueDays: r.overdue_days ?? 0,
  proposedClass: asClass(r.proposed_class),
  assetClass: asClass(r.asset_class),
  adjBizCode: r.adjBizCode,
  principalOutstanding: new Decimal(r.principal_open).toFixed(2),
  provision: new Decimal(r.provision).toFixed(2),
  openAdjBizCode: r.openAdjBizCode,
});

/** The live contracts the user may see with their class as of the business date `today`. */
export async function listClasses(
  ex: Executor,
  q: z.output<typeof classListSchema>,
  user: ScopeUser,
  today: string,
): Promise<Page<ClassRow>> {
  const from = liveClassFrom(user, today, listConds(q));
  const col = q.orderBy ? LIST_SORTS[q.orderBy] : undefined;
  const order = col
    ? sql.raw(`${col} ${q.order === 'asc' ? 'asc' : 'desc'} nulls last, id desc`)
    : sql.raw('overdue_days desc nulls last, id desc');
  const rows = await queryRows<RawClassRow>(
    ex,
    sql`select * from (select ${ROW_COLUMNS} ${from}) as r
         order by ${order} limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const total = await countOf(ex, from);
  return page(rows.map(toClassRow), total, q);
}

/** Where the export's keyset walk stands: the last row's sort key (overdue days, -1 unclassified) and id. */
export interface ClassCursor {
  days: number;
  id: number;
}

/**
 * The list's rows for its export (filters applied, no paging), in the list's default order (most
 * overdue first), a batch at a time by keyset so that the server holds one batch whatever the
 * portfolio's size.
 */
export async function classBatch(
  ex: Executor,
  q: ClassListFilters,
  user: ScopeUser,
  today: string,
  after: ClassCursor | null,
  size = 1000,
): Promise<{ rows: ClassRow[]; next: ClassCursor | null }> {
  const key = sql`coalesce(cl.overdue_days, -1)`;
  const more = [...listConds(q)];
  if (after) more.push(sql`(${key}, contracts.id) < (${after.days}, ${after.id})`);
  const rows = await queryRows<RawClassRow & { k: number }>(
    ex,
    sql`select ${ROW_COLUMNS}, ${key}::int as k ${liveClassFrom(user, today, more)}
         order by ${key} desc, contracts.id desc limit ${size}`,
  );
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(toClassRow),
    next: rows.length < size || !last ? null : { days: Number(last.k), id: Number(last.id) },
  };
}

/**
 * The distribution of the business date `today` from the record the day-ends keep
 * (docs/classification.md "Distribution"): the list's own rows — the live contracts with their
 * class row in force and their stored 本金余额 — grouped by class, 未分类 where none. One index probe
 * per contract; nothing of the ledger is recomputed.
 */
export async function storedDistribution(
  ex: Executor,
  user: ScopeUser,
  today: string,
): Promise<Map<string, { n: number; p: string | null }>> {
  const found = await queryRows<{ k: string; n: number; p: string | null }>(
    ex,
    sql`select coalesce(cl.asset_class, 'none') as k, count(*)::int as n,
               sum(contracts.principal_open)::text as p
          ${liveClassFrom(user, today)} group by 1`,
  );
  return new Map(found.map((f) => [f.k, { n: f.n, p: f.p }]));
}

// ---- 分类调整单

export type ClassAdjRecord = typeof classAdjustments.$inferSelect;

/** A contract's class row in force on `asOf`, if any. */
export async function classOf(
  ex: Executor,
  contractId: number,
  asOf: string,
): Promise<{ date: string; days: number; proposed: AssetClass; current: AssetClass } | null> {
  const [r] = await queryRows<{
    d: string;
    overdue_days: number;
    proposed_class: string;
    asset_class: string;
  }>(
    ex,
    sql`select to_char(business_date, 'YYYY-MM-DD') as d, overdue_days, proposed_class, asset_class
          from contract_classes where contract_id = ${contractId} and business_date <= ${asOf}::date
         order by business_date desc limit 1`,
  );
  return r
    ? {
        date: r.d,
        days: r.overdue_days,
        proposed: asClass(r.proposed_class)!,
        current: asClass(r.asset_class)!,
      }
    : null;
}

export async function findAdj(ex: Executor, code: string, user?: ScopeUser): Promise<ClassAdjRecord> {
  const [row] = await queryRows<{ id: number }>(
    ex,
    sql`select a.id::int as id from class_adjustments a join contracts on contracts.id = a.contract_id
         where a.biz_code = ${code} and a.deleted_at is null${user ? sql` and ${scopeOf(user)}` : sql``}`,
  );
  if (!row) throw notFound(WHAT);
  const [rec] = await ex.select().from(classAdjustments).where(eq(classAdjustments.id, row.id));
  return rec!;
}

interface RawAdj {
  adjBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  from_class: string | null;
  to_class: string;
  reason: string;
  state: ClassAdjRow['state'];
  effectiveDate: string | null;
  createdByName: string | null;
  updated_at: string | Date;
  version: number;
  contract_id: number;
}

const adjSelect = sql`select a.biz_code as "adjBizCode", contracts.biz_code as "contBizCode",
    contracts.contract_no as "contractNo", contracts.cust_name as "custName", a.from_class, a.to_class, a.reason,
    a.state, to_char(a.effective_date, 'YYYY-MM-DD') as "effectiveDate", u.real_name as "createdByName",
    a.updated_at, a.version, a.contract_id::int as contract_id`;

const toAdjRow = (r: RawAdj): ClassAdjRow => ({
  adjBizCode: r.adjBizCode,
  contBizCode: r.contBizCode,
  contractNo: r.contractNo,
  custName: r.custName,
  fromClass: asClass(r.from_class),
  toClass: asClass(r.to_class)!,
  reason: r.reason,
  state: r.state,
  effectiveDate: r.effectiveDate,
  createdByName: r.createdByName,
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function listAdjs(
  ex: Executor,
  q: z.output<typeof classAdjListSchema>,
  user: ScopeUser,
): Promise<Page<ClassAdjRow>> {
  const conds: SQL[] = [sql`a.deleted_at is null`, scopeOf(user)];
  if (q.adjBizCode) conds.push(sql`a.biz_code = ${q.adjBizCode}`);
  if (q.contBizCode) conds.push(sql`contracts.biz_code = ${q.contBizCode}`);
  if (q.contractNo) conds.push(sql`contracts.contract_no ilike ${likePattern(q.contractNo)}`);
  if (q.state) conds.push(sql`a.state = ${q.state}`);
  const from = sql`from class_adjustments a join contracts on contracts.id = a.contract_id
    left join users u on u.id = a.created_by where ${sql.join(conds, sql` and `)}`;
  const dir = q.orderBy === 'updatedAt' && q.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await queryRows<RawAdj>(
    ex,
    sql`${adjSelect} ${from} order by a.updated_at ${dir}, a.id desc limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  return page(rows.map(toAdjRow), await countOf(ex, from), q);
}

export async function viewAdj(
  ex: Executor,
  code: string,
  user: ScopeUser,
  today: string,
): Promise<ClassAdjView> {
  const [r] = await queryRows<RawAdj>(
    ex,
    sql`${adjSelect} from class_adjustments a join contracts on contracts.id = a.contract_id
         left join users u on u.id = a.created_by
        where a.biz_code = ${code} and a.deleted_at is null and ${scopeOf(user)}`,
  );
  if (!r) throw notFound(WHAT);
  const cls = await classOf(ex, r.contract_id, today);
  return {
    ...toAdjRow(r),
    version: r.version,
    overdueDays: cls?.days ?? 0,
    proposedClass: cls?.proposed ?? null,
  };
}

// ---- migration month over month

/** The last day of a month 'YYYY-MM'. */
function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${month}-${String(last).padStart(2, '0')}`;
}

/**
 * The classification at a month end (docs/classification.md "Migration"): the latest day-end on or
 * before the month's last day, and each contract's row in force then whose date is on or after
 * that day-end (a contract without one was not live at that day-end).
 */
async function snapshot(
  ex: Executor,
  end: string,
  user: ScopeUser,
): Promise<{ date: string | null; classes: Map<number, AssetClass> }> {
  const [d] = await queryRows<{ d: string | null }>(
    ex,
    sql`select to_char(max(business_date), 'YYYY-MM-DD') as d from contract_classes
         where source = 'dayEnd' and business_date <= ${end}::date`,
  );
  const date = d?.d ?? null;
  const classes = new Map<number, AssetClass>();
  if (!date) return { date, classes };
  const rows = await queryRows<{ id: number; asset_class: string }>(
    ex,
    sql`select cl.contract_id::int as id, cl.asset_class
          from contracts join ${classAsOf(sql`contracts.id`, end)} as cl on true
         where cl.business_date >= ${date}::date and ${scopeOf(user)}`,
  );
  for (const r of rows) classes.set(r.id, asClass(r.asset_class)!);
  return { date, classes };
}

export async function classMigration(
  ex: Executor,
  fromMonth: string,
  toMonth: string,
  user: ScopeUser,
): Promise<ClassMigration> {
  const a = await snapshot(ex, monthEnd(fromMonth), user);
  const b = await snapshot(ex, monthEnd(toMonth), user);
  const froms: MigrationFrom[] = [...ASSET_CLASSES, 'new'];
  const tos: MigrationTo[] = [...ASSET_CLASSES, 'exit'];
  const cells = Object.fromEntries(
    froms.map((f) => [f, Object.fromEntries(tos.map((t) => [t, 0]))]),
  ) as ClassMigration['cells'];
  for (const [id, from] of a.classes) cells[from][b.classes.get(id) ?? 'exit'] += 1;
  for (const [id, to] of b.classes) if (!a.classes.has(id)) cells.new[to] += 1;
  return { fromMonth, toMonth, fromDate: a.date, toDate: b.date, froms, tos, cells };
}
