import Decimal from 'decimal.js';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import {
  COLLECTION_CHANNEL_LABELS,
  COLLECTION_RESULT_LABELS,
  reminderDue,
  type CollectionCaseView,
  type CollectionChannel,
  type CollectionFilters,
  type CollectionRecordView,
  type CollectionResult,
  type CollectionRow,
  type CollectionSchedule,
  type CollectionStaff,
  type PromiseState,
  type collectionCaseSchema,
  type collectionListSchema,
  type collectionRecordSchema,
} from '@portal/contract/collections';
import { addDays, daysBetween } from '@portal/contract/plan/dates';
import type { ScopeUser } from '../../platform/auth/data-scope';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { likePattern, offsetOf, page } from '../../platform/http/list';
import { findContract, lockContract, scopeOf, type ContractRow } from '../contract';
import { contractPlanItems } from '../contract/schema';
import { addCollectionMessages } from '../messages';
import { overdueItems, paymentsOf, type OverdueItem } from '../contract';
import { collectionCases, collectionRecords } from './schema';

const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);

/** Disbursed contracts in force: the only ones with anything due or overdue. */
const LIVE = sql`contracts.deleted_at is null and contracts.status = 'effective' and contracts.loan_state = 'loaned'`;

/** The worklist's contract filters as conditions over `contracts` (list, export and print alike). */
function contractConds(q: CollectionFilters): SQL[] {
  const conds: SQL[] = [];
  if (q.contBizCode) conds.push(sql`contracts.biz_code = ${q.contBizCode}`);
  if (q.contractNo) conds.push(sql`contracts.contract_no ilike ${likePattern(q.contractNo)}`);
  if (q.custName) conds.push(sql`contracts.cust_name ilike ${likePattern(q.custName)}`);
  return conds;
}

interface CaseRow {
  id: number;
  contBizCode: string;
  contractNo: string;
  custName: string;
  assigneeId: number | null;
  assigneeName: string | null;
  nextAction: string | null;
  nextActionDate: string | null;
  lastContactDate: string | null;
  lastContactChannel: CollectionChannel | null;
  lastContactResult: CollectionResult | null;
  promiseDate: string | null;
  promiseAmount: string | null;
  promiseState: PromiseState | null;
}

/**
 * Each contract's case as the worklist shows it: the assignee (the case's, else the contract's
 * 业务经理, else its maker), the next action, the latest contact and the latest promise to pay.
 */
async function casesOf(ex: Executor, ids: readonly number[]): Promise<CaseRow[]> {
  if (ids.length === 0) return [];
  return queryRows<CaseRow>(
    ex,
    sql`select c.id::int as id, c.biz_code as "contBizCode", c.contract_no as "contractNo", c.cust_name as "custName",
               a.id::int as "assigneeId", coalesce(a.real_name, a.user_name) as "assigneeName",
               k.next_action as "nextAction", to_char(k.next_action_date, 'YYYY-MM-DD') as "nextActionDate",
               to_char(lr.contact_date, 'YYYY-MM-DD') as "lastContactDate", lr.channel as "lastContactChannel",
               lr.result as "lastContactResult", to_char(lp.promise_date, 'YYYY-MM-DD') as "promiseDate",
               lp.promise_amount::text as "promiseAmount", lp.promise_state as "promiseState"
          from contracts c
          left join collection_cases k on k.contract_id = c.id
          left join users a on a.id = coalesce(k.assignee_id, c.manager_id, c.created_by)
          left join lateral (select r.contact_date, r.channel, r.result from collection_records r
                              where r.contract_id = c.id order by r.contact_date desc, r.id desc limit 1) lr on true
          left join lateral (select r.promise_date, r.promise_amount, r.promise_state from collection_records r
                              where r.contract_id = c.id and r.promise_state is not null
                              order by r.contact_date desc, r.id desc limit 1) lp on true
         where c.id in (${sql.join(
           ids.map((id) => sql`${id}`),
           sql`, `,
         )})`,
  );
}

/**
 * The worklist (docs/collections.md "Worklist"): every contract the user may see with an item
 * overdue on the business date `asOf`, by paid's own overdue figures (itemAsOf), with its case.
 * Filters, sort and paging apply to the whole set; the export and the print read it unpaged.
 */
export async function worklist(
  ex: Executor,
  q: CollectionFilters & { orderBy?: string; order?: 'asc' | 'desc' },
  user: ScopeUser,
  asOf: string,
): Promise<CollectionRow[]> {
  const conds = [LIVE, scopeOf(user), ...contractConds(q)];
  const items = await overdueItems(
    ex,
    sql`(select contracts.id from contracts where ${sql.join(conds, sql` and `)})`,
    asOf,
  );
  const byContract = new Map<number, OverdueItem[]>();
  for (const it of items) byContract.set(it.contractId, [...(byContract.get(it.contractId) ?? []), it]);
  const cases = await casesOf(ex, [...byContract.keys()]);
  let rows: CollectionRow[] = cases.map(({ id, ...c }) => {
    const mine = byContract.get(id) ?? [];
    return {
      ...c,
      overdueDays: Math.max(0, ...mine.map((i) => i.overdueDays)),
      overdueItems: mine.length,
      overdueAmount: money(mine.reduce((s, i) => s.plus(i.open), new Decimal(0))),
      penaltyAmount: money(mine.reduce((s, i) => s.plus(i.penalty), new Decimal(0))),
      promiseAmount: c.promiseAmount === null ? null : money(c.promiseAmount),
      asOf,
    };
  });
  if (q.assigneeName) rows = rows.filter((r) => (r.assigneeName ?? '').includes(q.assigneeName!));
  if (q.minOverdueDays !== undefined) rows = rows.filter((r) => r.overdueDays >= q.minOverdueDays!);
  if (q.promise) rows = rows.filter((r) => r.promiseState === q.promise);
  const dir = q.order === 'asc' ? 1 : -1;
  const key = q.orderBy ?? 'overdueDays';
  const value = (r: CollectionRow): number | string =>
    key === 'overdueAmount'
      ? Number(r.overdueAmount)
      : key === 'lastContactDate'
        ? (r.lastContactDate ?? '')
        : key === 'nextActionDate'
          ? (r.nextActionDate ?? '')
          : r.overdueDays;
  return rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) return (x < y ? -1 : 1) * (q.orderBy ? dir : -1);
    return a.contBizCode < b.contBizCode ? -1 : 1;
  });
}

export async function listWorklist(
  ex: Executor,
  q: z.output<typeof collectionListSchema>,
  user: ScopeUser,
  asOf: string,
): Promise<Page<CollectionRow>> {
  const rows = await worklist(ex, q, user, asOf);
  return page(rows.slice(offsetOf(q), offsetOf(q) + q.pageSize), rows.length, q);
}

/** A contract's case and its 催收记录, newest first. */
export async function viewCase(ex: Executor, contract: ContractRow): Promise<CollectionCaseView> {
  const [c] = await casesOf(ex, [contract.id]);
  const records = await queryRows<CollectionRecordView>(
    ex,
    sql`select r.id::int as id, to_char(r.contact_date, 'YYYY-MM-DD') as "contactDate", r.channel,
               r.contact_person as "contactPerson", r.result, r.note,
               to_char(r.promise_date, 'YYYY-MM-DD') as "promiseDate", r.promise_amount::text as "promiseAmount",
               r.promise_state as "promiseState", r.promise_paid::text as "promisePaid",
               coalesce(u.real_name, u.user_name) as "createdByName", r.created_at as "createdAt"
          from collection_records r left join users u on u.id = r.created_by
         where r.contract_id = ${contract.id} order by r.contact_date desc, r.id desc`,
  );
  return {
    contBizCode: contract.bizCode,
    contractNo: contract.contractNo,
    custName: contract.custName,
    assigneeId: c?.assigneeId ?? null,
    assigneeName: c?.assigneeName ?? null,
    nextAction: c?.nextAction ?? null,
    nextActionDate: c?.nextActionDate ?? null,
    records: records.map((r) => ({
      ...r,
      promiseAmount: r.promiseAmount === null ? null : money(r.promiseAmount),
      promisePaid: r.promisePaid === null ? null : money(r.promisePaid),
      createdAt: new Date(r.createdAt).toISOString(),
    })),
  };
}

/**
 * Adds a 催收记录 to a contract in force (docs/collections.md "催收记录"): a contact is dated on or
 * before the business date; a promise to pay opens, to be judged by the day-end after its date.
 */
export async function addRecord(
  tx: Tx,
  body: z.output<typeof collectionRecordSchema>,
  user: ScopeUser,
  actor: Actor,
  today: string,
): Promise<CollectionCaseView> {
  const cmd = { entity: 'collection', action: 'addRecord', code: body.contBizCode };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    await findContract(tx, body.contBizCode, user);
    const contract = await lockContract(tx, body.contBizCode);
    if (contract.status !== 'effective' || contract.loanState !== 'loaned')
      throw badInput('合同未放款或已结清，不能登记催收记录');
    if (body.contactDate > today) throw badInput(`联系日期不能晚于营业日 ${today}`);
    if (body.promiseDate && body.promiseDate < today) throw badInput(`承诺还款日期不能早于营业日 ${today}`);
    const promised = body.result === 'promised';
    await tx.insert(collectionRecords).values({
      contractId: contract.id,
      contactDate: body.contactDate,
      channel: body.channel,
      contactPerson: body.contactPerson ?? null,
      result: body.result,
      note: body.note ?? null,
      promiseDate: promised ? body.promiseDate! : null,
      promiseAmount: promised ? body.promiseAmount! : null,
      promiseState: promised ? 'open' : null,
      createdBy: actor.userId || null,
    });
    await w.audit({
      detail: {
        contactDate: body.contactDate,
        channel: COLLECTION_CHANNEL_LABELS[body.channel] as string,
        result: COLLECTION_RESULT_LABELS[body.result] as string,
        promiseDate: body.promiseDate ?? null,
        promiseAmount: body.promiseAmount ?? null,
      },
    });
    return viewCase(tx, contract);
  });
}

/** Sets the assignee and the next action of a contract's case. */
export async function saveCase(
  tx: Tx,
  body: z.output<typeof collectionCaseSchema>,
  user: ScopeUser,
  actor: Actor,
): Promise<CollectionCaseView> {
  const cmd = { entity: 'collection', action: 'saveCase', code: body.contBizCode };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    await findContract(tx, body.contBizCode, user);
    const contract = await lockContract(tx, body.contBizCode);
    const [assignee] = await queryRows<{ name: string }>(
      tx,
      sql`select coalesce(real_name, user_name) as name from users
         where id = ${body.assigneeId} and deleted_at is null and state = 'enabled'`,
    );
    if (!assignee) throw badInput('催收人不存在或已停用');
    const values = {
      assigneeId: body.assigneeId,
      nextAction: body.nextAction ?? null,
      nextActionDate: body.nextActionDate ?? null,
      updatedAt: sql`now()`,
      updatedBy: actor.userId || null,
    };
    await tx
      .insert(collectionCases)
      .values({ contractId: contract.id, ...values })
      .onConflictDoUpdate({ target: collectionCases.contractId, set: values });
    await w.audit({
      detail: {
        assignee: assignee.name,
        nextAction: body.nextAction ?? null,
        nextActionDate: body.nextActionDate ?? null,
      },
    });
    return viewCase(tx, contract);
  });
}

/** The staff an assignee is chosen from: enabled users of our company. */
export async function collectionStaff(ex: Executor): Promise<CollectionStaff[]> {
  return queryRows<CollectionStaff>(
    ex,
    sql`select u.id::int as "userId", coalesce(u.real_name, u.user_name) as name, d.name as "deptName"
          from users u left join depts d on d.id = u.dept_id
         where u.deleted_at is null and u.state = 'enabled' order by d.name nulls last, u.id`,
  );
}

// ---- the day-end

interface Target {
  contractId: number;
  contBizCode: string;
  contractNo: string;
  users: number[];
}

/** Who is told of a contract: its 业务经理 (else its maker) and its collector when another person. */
async function targetsOf(tx: Tx, ids: readonly number[]): Promise<Map<number, Target>> {
  const out = new Map<number, Target>();
  if (ids.length === 0) return out;
  const rows = await queryRows<{
    id: number;
    biz_code: string;
    contract_no: string;
    manager: number | null;
    assignee: number | null;
  }>(
    tx,
    sql`select c.id::int as id, c.biz_code, c.contract_no, coalesce(c.manager_id, c.created_by)::int as manager,
               k.assignee_id::int as assignee
          from contracts c left join collection_cases k on k.contract_id = c.id
         where c.id = any(string_to_array(${ids.join(',')}, ',')::bigint[])`,
  );
  for (const r of rows) {
    const users = [...new Set([r.manager, r.assignee])].filter(
      (u): u is number => typeof u === 'number' && u > 0,
    );
    out.set(r.id, { contractId: r.id, contBizCode: r.biz_code, contractNo: r.contract_no, users });
  }
  return out;
}

/**
 * The day-end's collections work for the business date `date` (docs/collections.md), in the
 * day-end's transaction under its lock, so a date is worked once however many servers run and a
 * catch-up works each day passed: reminders by the schedule, before and after each due date, to
 * the contract's manager and collector (each once per person, item and day: a run again sends
 * nothing), and the promises whose date has passed judged kept or broken (a broken one told).
 * Answers how many messages it added.
 */
/** Reminders a statement (four text parameters whatever the count; the slice bounds its size). */
const REMINDER_SLICE = 5000;

/**
 * Inserts the wanted 催收提醒 (a user gone or a reminder given before is skipped), a slice a
 * statement in the order wanted (a statement a reminder made the day-end of a large portfolio
 * slow: bench/README.md "Ten times the portfolio"); answers the keys `user:item:offset` added.
 */
async function addReminders(
  tx: Tx,
  date: string,
  wanted: readonly { u: number; d: { contractId: number; itemId: number; offset: number } }[],
): Promise<Set<string>> {
  const added = new Set<string>();
  for (let i = 0; i < wanted.length; i += REMINDER_SLICE) {
    const part = wanted.slice(i, i + REMINDER_SLICE);
    const list = (pick: (w: (typeof part)[number]) => number) => part.map(pick).join(',');
    const rows = await queryRows<{ u: number; item: number; offset: number }>(
      tx,
      sql`insert into collection_reminders (user_id, contract_id, plan_item_id, offset_days, business_date)
          select u.id, w.contract_id, w.item_id, w.offset_days, ${date}::date
            from unnest(string_to_array(${list((w) => w.u)}, ',')::bigint[],
                        string_to_array(${list((w) => w.d.contractId)}, ',')::bigint[],
                        string_to_array(${list((w) => w.d.itemId)}, ',')::bigint[],
                        string_to_array(${list((w) => w.d.offset)}, ',')::int[])
                 with ordinality as w(user_id, contract_id, item_id, offset_days, ord)
            join users u on u.id = w.user_id and u.deleted_at is null
           order by w.ord
          on conflict (user_id, plan_item_id, offset_days) do nothing
          returning user_id::int as u, plan_item_id::int as item, offset_days as offset`,
    );
    for (const r of rows) added.add(`${r.u}:${r.item}:${r.offset}`);
  }
  return added;
}

export async function collectAtDayEnd(tx: Tx, date: string, schedule: CollectionSchedule): Promise<number> {
  const due: { contractId: number; itemId: number; offset: number; detail: string }[] = [];
  const before = [...new Set(schedule.beforeDays)];
  if (before.length) {
    const soon = await queryRows<{ contract_id: number; id: number; period: number; due_date: string }>(
      tx,
      sql`select i.contract_id::int as contract_id, i.id::int as id, i.period, to_char(i.due_date, 'YYYY-MM-DD') as due_date
            from contract_plan_items i join contracts on contracts.id = i.contract_id
           where ${LIVE} and i.superseded_by is null
             and (i.principal_paid < i.principal or i.interest_paid < i.interest or i.fee_paid < i.fee)
             and i.due_date in (${sql.join(
               before.map((b) => sql`${addDays(date, b)}::date`),
               sql`, `,
             )})`,
    );
    for (const s of soon) {
      const days = daysBetween(date, s.due_date);
      due.push({
        contractId: s.contract_id,
        itemId: s.id,
        offset: -days,
        detail: `第${s.period}期将于 ${s.due_date} 到期，还有${days}天`,
      });
    }
  }
  const overdue = await overdueItems(tx, sql`(select contracts.id from contracts where ${LIVE})`, date);
  for (const o of overdue) {
    const n = daysBetween(o.dueDate, date);
    if (!reminderDue(n, schedule)) continue;
    const owed = new Decimal(o.open).plus(o.penalty);
    due.push({
      contractId: o.contractId,
      itemId: o.itemId,
      offset: n,
      detail: `第${o.period}期 ${o.dueDate} 到期，已逾期${n}天，尚欠 ${money(owed)} 元`,
    });
  }
  const promises = await judgePromises(tx, date);
  const targets = await targetsOf(tx, [
    ...new Set([...due.map((d) => d.contractId), ...promises.map((p) => p.contractId)]),
  ]);
  const messages: Parameters<typeof addCollectionMessages>[1][number][] = [];
  const wanted = due.flatMap((d) => (targets.get(d.contractId)?.users ?? []).map((u) => ({ u, d })));
  const added = await addReminders(tx, date, wanted);
  for (const { u, d } of wanted) {
    const t = targets.get(d.contractId)!;
    // A message for each row the insert added (once), in the order wanted.
    if (added.delete(`${u}:${d.itemId}:${d.offset}`))
      messages.push({
        userId: u,
        kind: 'collect',
        contBizCode: t.contBizCode,
        contractNo: t.contractNo,
        detail: d.detail,
      });
  }
  for (const p of promises) {
    const t = targets.get(p.contractId);
    for (const u of t?.users ?? [])
      messages.push({
        userId: u,
        kind: 'promiseBroken',
        contBizCode: t!.contBizCode,
        contractNo: t!.contractNo,
        detail: `承诺 ${p.promiseDate} 前还款 ${p.promiseAmount} 元，实收 ${p.paid} 元`,
      });
  }
  await addCollectionMessages(tx, messages);
  return messages.length;
}

/**
 * The open promises whose date is before `date`: kept when the write-offs dated from the contact
 * through the promised date add up to the promised amount, broken otherwise. Answers the broken.
 */
async function judgePromises(
  tx: Tx,
  date: string,
): Promise<{ contractId: number; promiseDate: string; promiseAmount: string; paid: string }[]> {
  const open = await tx
    .select()
    .from(collectionRecords)
    .where(
      sql`${collectionRecords.promiseState} = 'open' and ${collectionRecords.promiseDate} < ${date}::date`,
    )
    .for('update');
  const broken: { contractId: number; promiseDate: string; promiseAmount: string; paid: string }[] = [];
  for (const r of open) {
    // Every item the contract ever had: a change supersedes items, their payments stay theirs.
    const items = await tx
      .select()
      .from(contractPlanItems)
      .where(eq(contractPlanItems.contractId, r.contractId));
    const paid = (await paymentsOf(tx, items))
      .filter((p) => p.valueDate >= r.contactDate && p.valueDate <= r.promiseDate!)
      .reduce(
        (s, p) =>
          s
            .plus(p.principal ?? 0)
            .plus(p.interest ?? 0)
            .plus(p.fee ?? 0)
            .plus(p.penalty ?? 0),
        new Decimal(0),
      );
    const kept = paid.gte(r.promiseAmount!);
    await tx
      .update(collectionRecords)
      .set({ promiseState: kept ? 'kept' : 'broken', promisePaid: money(paid), judgedOn: date })
      .where(eq(collectionRecords.id, r.id));
    if (!kept)
      broken.push({
        contractId: r.contractId,
        promiseDate: r.promiseDate!,
        promiseAmount: money(r.promiseAmount!),
        paid: money(paid),
      });
  }
  return broken;
}
