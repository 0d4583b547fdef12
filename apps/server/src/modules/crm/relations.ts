import { and, desc, eq, gt, isNull, lt, lte, gte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import type {
  relationGraphSchema,
  relationListSchema,
  RelationGraph,
  RelationRow,
  relationSaveSchema,
  RelState,
  RelType,
} from '@portal/contract/crm';
import type { Db, Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { advisoryXactLock } from '../../platform/db/advisory';
import { conflict, notFound } from '../../platform/errors';
import { countOf, offsetOf, orderClause, page } from '../../platform/http/list';
import { customerNames, lockCustomer } from '../company';
import { companies } from '../company/schema';
import { compRelations } from './schema';

type Row = typeof compRelations.$inferSelect;
/**
 * A live relation between live customers: a customer in a relation cannot be deleted (usage
 * check), but rows from before that check must not show a deleted customer as a live node.
 */
const live = and(
  isNull(compRelations.deletedAt),
  sql`${compRelations.coreCompCode} in (select ${companies.compCode} from ${companies} where ${companies.deletedAt} is null)`,
  sql`${compRelations.relCompCode} in (select ${companies.compCode} from ${companies} where ${companies.deletedAt} is null)`,
)!;
const notDeleted = isNull(compRelations.deletedAt);
const WHAT = '企业关系';
export const GRAPH_LIMIT = 500;

export function relStateOf(r: Pick<Row, 'startDate' | 'endDate'>, today: string): RelState {
  if (r.startDate > today) return 'future';
  if (r.endDate < today) return 'expired';
  return 'valid';
}

async function toRows(ex: Executor, rows: Row[], today: string): Promise<RelationRow[]> {
  const names = await customerNames(
    ex,
    rows.flatMap((r) => [r.coreCompCode, r.relCompCode]),
  );
  return rows.map((r) => ({
    bizCode: r.bizCode,
    relType: r.relType as RelType,
    coreCompCode: r.coreCompCode,
    coreCompName: names.get(r.coreCompCode) ?? '',
    relCompCode: r.relCompCode,
    relCompName: names.get(r.relCompCode) ?? '',
    startDate: r.startDate,
    endDate: r.endDate,
    relState: relStateOf(r, today),
    remark: r.remark,
    version: r.version,
    createdAt: r.createdAt,
  }));
}

function stateWhere(state: RelState | undefined, today: string): SQL | undefined {
  if (state === 'future') return gt(compRelations.startDate, today);
  if (state === 'expired') return lt(compRelations.endDate, today);
  if (state === 'valid') return and(lte(compRelations.startDate, today), gte(compRelations.endDate, today));
  return undefined;
}

export async function listRelations(
  db: Db,
  q: z.output<typeof relationListSchema>,
  today: string,
  /** The caller's data scope over the core enterprises (customerScope). */
  scope: SQL,
): Promise<Page<RelationRow>> {
  const where: SQL[] = [live, scope];
  if (q.compCode)
    where.push(or(eq(compRelations.coreCompCode, q.compCode), eq(compRelations.relCompCode, q.compCode))!);
  if (q.relType) where.push(eq(compRelations.relType, q.relType));
  const st = stateWhere(q.relState, today);
  if (st) where.push(st);
  const cond = and(...where)!;
  const rows = await db
    .select()
    .from(compRelations)
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          bizCode: compRelations.bizCode,
          startDate: compRelations.startDate,
          endDate: compRelations.endDate,
          createdAt: compRelations.createdAt,
        },
        [desc(compRelations.id)],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(db, sql`from ${compRelations} where ${cond}`);
  return page(await toRows(db, rows, today), total, q);
}

/**
 * Saves a relation. Rules: both enterprises exist (and are enabled), not the same one (also a DB
 * CHECK), end ≥ start (DB CHECK), and no other live relation of the same type between the same
 * pair whose validity overlaps. Saves of one pair and type are serialised by an advisory lock, so
 * two concurrent saves cannot both pass the overlap check.
 */
export async function saveRelation(
  db: Db,
  input: z.output<typeof relationSaveSchema>,
  actor: Actor,
): Promise<{ bizCode: string }> {
  const cmd = {
    entity: 'compRelation',
    action: input.bizCode ? 'update' : 'create',
    version: input.version,
    what: WHAT,
  };
  return runCommand(db, actor, cmd, async (tx, w) => {
    // Both customers are held against a concurrent delete until commit.
    await lockCustomer(tx, input.coreCompCode, { label: '核心企业' });
    await lockCustomer(tx, input.relCompCode, { label: '关联企业' });
    const key = `${input.relType}|${input.coreCompCode}|${input.relCompCode}`;
    await advisoryXactLock(tx, 'crm.relation', key);
    const overlap = [
      notDeleted,
      eq(compRelations.relType, input.relType),
      eq(compRelations.coreCompCode, input.coreCompCode),
      eq(compRelations.relCompCode, input.relCompCode),
      lte(compRelations.startDate, input.endDate),
      gte(compRelations.endDate, input.startDate),
    ];
    if (input.bizCode) overlap.push(ne(compRelations.bizCode, input.bizCode));
    const [dup] = await tx
      .select({ bizCode: compRelations.bizCode, start: compRelations.startDate, end: compRelations.endDate })
      .from(compRelations)
      .where(and(...overlap))
      .limit(1);
    if (dup)
      throw conflict(
        `两家企业之间已有同类关系（${dup.start} 至 ${dup.end}，编号${dup.bizCode}），有效期不能重叠`,
      );
    const values = {
      relType: input.relType,
      coreCompCode: input.coreCompCode,
      relCompCode: input.relCompCode,
      startDate: input.startDate,
      endDate: input.endDate,
      remark: input.remark ?? null,
    };
    if (!input.bizCode) {
      const bizCode = await nextCode(tx, 'comp_relation');
      await tx
        .insert(compRelations)
        .values({ ...values, bizCode, createdBy: actor.userId, updatedBy: actor.userId });
      await w.audit({ code: [input.coreCompCode, input.relCompCode], detail: { bizCode, ...values } });
      return { bizCode };
    }
    const where = and(eq(compRelations.bizCode, input.bizCode), notDeleted)!;
    const [before] = await tx.select().from(compRelations).where(where).limit(1);
    if (!before) throw notFound(WHAT);
    // A relation moved to another pair or type is checked under that key; lock the old one too.
    const oldKey = `${before.relType}|${before.coreCompCode}|${before.relCompCode}`;
    if (oldKey !== key) await advisoryXactLock(tx, 'crm.relation', oldKey);
    await w.update(compRelations, where, values);
    await w.audit({
      code: [...new Set([input.coreCompCode, input.relCompCode, before.coreCompCode, before.relCompCode])],
      detail: {
        bizCode: input.bizCode,
        before: {
          relType: before.relType as typeof values.relType,
          coreCompCode: before.coreCompCode,
          relCompCode: before.relCompCode,
          startDate: before.startDate,
          endDate: before.endDate,
          remark: before.remark ?? null,
        },
        after: values,
      },
    });
    return { bizCode: input.bizCode };
  });
}

export async function deleteRelation(db: Db, bizCode: string, version: number, actor: Actor): Promise<void> {
  await runCommand(db, actor, { entity: 'compRelation', action: 'delete', version }, async (tx, w) => {
    const [row] = await tx
      .select()
      .from(compRelations)
      .where(and(eq(compRelations.bizCode, bizCode), notDeleted))
      .for('update');
    if (!row) throw notFound(WHAT);
    await w.update(compRelations, eq(compRelations.id, row.id), { deletedAt: sql`now()` });
    await w.audit({ code: [row.coreCompCode, row.relCompCode], detail: { bizCode, relType: row.relType } });
  });
}

/** The relation graph: every live relation (or those touching one enterprise), up to GRAPH_LIMIT. */
export async function relationGraph(
  db: Db,
  q: z.output<typeof relationGraphSchema>,
  today: string,
  /** The caller's data scope over the core enterprises (customerScope). */
  scope: SQL,
): Promise<RelationGraph> {
  const where: SQL[] = [live, scope];
  if (q.compCode)
    where.push(or(eq(compRelations.coreCompCode, q.compCode), eq(compRelations.relCompCode, q.compCode))!);
  if (q.validOnly) where.push(stateWhere('valid', today)!);
  const rows = await db
    .select()
    .from(compRelations)
    .where(and(...where))
    .orderBy(desc(compRelations.id))
    .limit(GRAPH_LIMIT + 1);
  const truncated = rows.length > GRAPH_LIMIT;
  const used = rows.slice(0, GRAPH_LIMIT);
  const names = await customerNames(
    db,
    used.flatMap((r) => [r.coreCompCode, r.relCompCode]),
  );
  const codes = [...new Set(used.flatMap((r) => [r.coreCompCode, r.relCompCode]))];
  return {
    nodes: codes.map((c) => ({ compCode: c, compName: names.get(c) ?? c })),
    links: used.map((r) => ({
      bizCode: r.bizCode,
      source: r.coreCompCode,
      target: r.relCompCode,
      relType: r.relType as RelType,
      relState: relStateOf(r, today),
    })),
    truncated,
  };
}
