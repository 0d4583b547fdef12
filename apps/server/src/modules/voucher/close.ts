import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CLOSE_ACTION_LABELS,
  type closeAskSchema,
  type closeDecideSchema,
  type closeListSchema,
  type CloseMonth,
  type CloseMonthPage,
  type CloseRequest,
} from '@portal/contract/voucher';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { offsetOf, page } from '../../platform/http/list';
import { accrueMonthEnds, monthEnd } from './accrual';
import { provideMonthEnd } from './provision';
import { voucherNo } from './service';

/**
 * 月结 (docs/accounting.md "Month close"). Finance asks to close a month (or to reopen one, with a
 * reason); a checker other than the asker approves, and the close (the reopening) runs in that
 * approval's transaction, or rejects. Every ask and decision writes an audit row.
 */

interface RequestRaw {
  id: number;
  period: string;
  action: CloseRequest['action'];
  reason: string | null;
  state: CloseRequest['state'];
  asked_by_name: string | null;
  asked_at: string;
  decided_by_name: string | null;
  decided_at: string | null;
  comment: string | null;
}

const REQUEST = sql`select r.id::int as id, r.period, r.action, r.reason, r.state, a.real_name as asked_by_name,
       to_char(r.asked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as asked_at,
       d.real_name as decided_by_name,
       to_char(r.decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as decided_at, r.comment
  from book_close_requests r left join users a on a.id = r.asked_by left join users d on d.id = r.decided_by`;

const toRequest = (r: RequestRaw): CloseRequest => ({
  requestId: r.id,
  period: r.period,
  action: r.action,
  reason: r.reason,
  state: r.state,
  askedByName: r.asked_by_name,
  askedAt: r.asked_at,
  decidedByName: r.decided_by_name,
  decidedAt: r.decided_at,
  comment: r.comment,
});

/** The months of the books (those with vouchers, or a request), newest first, with their requests. */
export async function listMonths(ex: Executor, q: z.output<typeof closeListSchema>): Promise<CloseMonthPage> {
  const months = await queryRows<{
    period: string;
    closed: boolean;
    closed_at: string | null;
    closed_by_name: string | null;
  }>(
    ex,
    sql`select m.period, m.closed, to_char(m.closed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as closed_at,
               u.real_name as closed_by_name
          from book_months m left join users u on u.id = m.closed_by
         order by m.period ${q.order === 'asc' ? sql`asc` : sql`desc`}
         limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const [n] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from book_months`);
  const periods = months.map((m) => m.period);
  const requests =
    periods.length === 0
      ? []
      : await queryRows<RequestRaw>(
          ex,
          sql`${REQUEST} where r.period in (${sql.join(
            periods.map((p) => sql`${p}`),
            sql`, `,
          )}) order by r.id desc`,
        );
  const list = months.map((m): CloseMonth => {
    const mine = requests.filter((r) => r.period === m.period);
    const open = mine.find((r) => r.state === 'pending');
    const last = mine.find((r) => r.state !== 'pending');
    return {
      period: m.period,
      closed: m.closed,
      closedAt: m.closed_at,
      closedByName: m.closed_by_name,
      request: open ? toRequest(open) : null,
      last: last ? toRequest(last) : null,
    };
  });
  return page(list, n?.n ?? 0, q);
}

async function requestById(ex: Executor, id: number): Promise<CloseRequest> {
  const [r] = await queryRows<RequestRaw>(ex, sql`${REQUEST} where r.id = ${id}`);
  if (!r) throw notFound('月结申请');
  return toRequest(r);
}

/** The month's row, made when missing, locked FOR UPDATE: no posting into it runs meanwhile. */
async function lockMonth(tx: Tx, period: string): Promise<{ closed: boolean }> {
  await tx.execute(sql`insert into book_months (period) values (${period}) on conflict (period) do nothing`);
  const [m] = await queryRows<{ closed: boolean }>(
    tx,
    sql`select closed from book_months where period = ${period} for update`,
  );
  return m!;
}

/** Why a month may not be closed (or reopened) now, or null. */
async function refusal(
  ex: Executor,
  period: string,
  action: CloseRequest['action'],
  closed: boolean,
  today: string,
): Promise<string | null> {
  if (action === 'close') {
    if (closed) return `会计期间${period}已结账`;
    const end = monthEnd(`${period}-01`);
    if (end > today) return `会计期间${period}尚未结束（营业日${today}），月末${end}之后方可结账`;
    const [earlier] = await queryRows<{ period: string }>(
      ex,
      sql`select period from book_months where period < ${period} and not closed order by period limit 1`,
    );
    if (earlier) return `请先结账会计期间${earlier.period}（按月顺序结账）`;
    return null;
  }
  if (!closed) return `会计期间${period}未结账，无须反结账`;
  const [later] = await queryRows<{ period: string }>(
    ex,
    sql`select period from book_months where period > ${period} and closed order by period desc limit 1`,
  );
  if (later) return `请先反结账会计期间${later.period}（从最近结账的月份起逐月反结账）`;
  return null;
}

/** Finance asks to close (reopen) a month: recorded as pending until a checker decides. */
export async function askClose(
  tx: Tx,
  body: z.output<typeof closeAskSchema>,
  actor: Actor,
  today: string,
): Promise<CloseRequest> {
  const cmd = {
    entity: 'bookMonth',
    action: body.action === 'close' ? 'askClose' : 'askReopen',
    code: body.period,
  };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const { closed } = await lockMonth(tx, body.period);
    const why = await refusal(tx, body.period, body.action, closed, today);
    if (why) throw conflict(why);
    const [open] = await queryRows<{ id: number }>(
      tx,
      sql`select id from book_close_requests where period = ${body.period} and state = 'pending'`,
    );
    if (open) throw conflict(`会计期间${body.period}已有待复核的月结申请`);
    const [r] = await queryRows<{ id: number }>(
      tx,
      sql`insert into book_close_requests (period, action, reason, asked_by)
        values (${body.period}, ${body.action}, ${body.reason ?? null}, ${actor.userId})
        returning id::int as id`,
    );
    await w.audit({ detail: { reason: body.reason ?? null } });
    return requestById(tx, r!.id);
  });
}

/** The request, locked, pending, and decided by someone other than its asker. */
async function decidable(tx: Tx, id: number, actor: Actor) {
  const [r] = await queryRows<{
    id: number;
    period: string;
    action: 'close' | 'reopen';
    state: string;
    asked_by: number;
  }>(
    tx,
    sql`select id::int as id, period, action, state, asked_by::int as asked_by
          from book_close_requests where id = ${id} for update`,
  );
  if (!r) throw notFound('月结申请');
  if (r.state !== 'pending') throw conflict('该月结申请已处理');
  if (r.asked_by === actor.userId) throw conflict('申请人和复核人相同，不可复核');
  return r;
}

/**
 * The checks of a close (docs/accounting.md "Month close"): every voucher of the month balances,
 * and the trial balance's figures of the month (the account totals kept per period) are the
 * month's voucher lines summed per account. The vouchers this transaction wrote (the close's own
 * accrual and provisioning) are counted into the totals only at its commit and are left out of
 * the tie; they balance by construction and are checked with the others.
 */
async function checkBooks(tx: Tx, period: string): Promise<void> {
  const unbalanced = await queryRows<{ no: number | null; debit: string; credit: string }>(
    tx,
    sql`select v.no, coalesce(sum(l.debit), 0)::text as debit, coalesce(sum(l.credit), 0)::text as credit
          from vouchers v left join voucher_lines l on l.voucher_id = v.id
         where v.period = ${period}
         group by v.id, v.no
        having coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0)
         order by v.no nulls last
         limit 1`,
  );
  const u = unbalanced[0];
  if (u)
    throw conflict(
      `会计期间${period}的凭证${u.no === null ? '' : voucherNo(u.no)}借贷不平衡（借方${new Decimal(u.debit).toFixed(2)}，贷方${new Decimal(u.credit).toFixed(2)}），不能结账`,
    );
  const off = await queryRows<{
    code: string;
    tb_debit: string;
    tb_credit: string;
    debit: string;
    credit: string;
  }>(
    tx,
    sql`with lines as (
          select l.account_code, l.account_name, sum(l.debit) as debit, sum(l.credit) as credit
            from vouchers v join voucher_lines l on l.voucher_id = v.id
           where v.period = ${period} and v.no is not null
           group by l.account_code, l.account_name),
        tb as (
          select account_code, account_name, debit, credit from voucher_account_periods where period = ${period})
        select coalesce(l.account_code, t.account_code) as code,
               coalesce(t.debit, 0)::text as tb_debit, coalesce(t.credit, 0)::text as tb_credit,
               coalesce(l.debit, 0)::text as debit, coalesce(l.credit, 0)::text as credit
          from lines l full join tb t on t.account_code = l.account_code and t.account_name = l.account_name
         where coalesce(l.debit, 0) <> coalesce(t.debit, 0) or coalesce(l.credit, 0) <> coalesce(t.credit, 0)
         order by 1 limit 1`,
  );
  const o = off[0];
  if (o)
    throw conflict(
      `会计期间${period}试算平衡与凭证不符：科目${o.code}本期借方${new Decimal(o.tb_debit).toFixed(2)}/贷方${new Decimal(o.tb_credit).toFixed(2)}，凭证合计借方${new Decimal(o.debit).toFixed(2)}/贷方${new Decimal(o.credit).toFixed(2)}，不能结账`,
    );
}

/**
 * Closes a month, in the approving transaction: the month's row locked first (postings into it
 * already running finish before; later ones wait and are then refused), the month end's accrual and
 * provisioning run if they have not been, the books checked, and the month marked closed.
 */
export async function closeMonth(tx: Tx, period: string, actor: Actor, today: string): Promise<void> {
  const { closed } = await lockMonth(tx, period);
  const why = await refusal(tx, period, 'close', closed, today);
  if (why) throw conflict(why);
  const end = monthEnd(`${period}-01`);
  await accrueMonthEnds(tx, end, actor);
  await provideMonthEnd(tx, end, actor);
  await checkBooks(tx, period);
  await tx.execute(
    sql`update book_months set closed = true, closed_at = now(), closed_by = ${actor.userId || null},
               voucher_count = (select count(*) from vouchers where period = ${period}),
               debit_total = (select coalesce(sum(l.debit), 0) from vouchers v join voucher_lines l on l.voucher_id = v.id
                               where v.period = ${period})
         where period = ${period}`,
  );
}

async function reopenMonth(tx: Tx, period: string, today: string): Promise<void> {
  const { closed } = await lockMonth(tx, period);
  const why = await refusal(tx, period, 'reopen', closed, today);
  if (why) throw conflict(why);
  await tx.execute(
    sql`update book_months set closed = false, closed_at = null, closed_by = null where period = ${period}`,
  );
}

/** A checker approves: the close (reopening) runs now, or the whole approval is refused (409). */
export async function approveRequest(
  tx: Tx,
  body: z.output<typeof closeDecideSchema>,
  actor: Actor,
  today: string,
): Promise<CloseRequest> {
  return runCommand(tx, actor, { entity: 'bookMonth' }, async (_tx, w) => {
    const r = await decidable(tx, body.requestId, actor);
    if (r.action === 'close') await closeMonth(tx, r.period, actor, today);
    else await reopenMonth(tx, r.period, today);
    await tx.execute(
      sql`update book_close_requests set state = 'approved', decided_by = ${actor.userId}, decided_at = now(),
               comment = ${body.comment ?? null}
         where id = ${r.id}`,
    );
    await w.audit({
      code: r.period,
      action: r.action === 'close' ? 'closeMonth' : 'reopenMonth',
      detail: { requestId: r.id, comment: body.comment ?? null },
    });
    return requestById(tx, r.id);
  });
}

export async function rejectRequest(
  tx: Tx,
  body: z.output<typeof closeDecideSchema>,
  actor: Actor,
): Promise<CloseRequest> {
  return runCommand(tx, actor, { entity: 'bookMonth', action: 'rejectClose' }, async (_tx, w) => {
    const r = await decidable(tx, body.requestId, actor);
    if (!body.comment) throw badInput('驳回须填写复核意见');
    await tx.execute(
      sql`update book_close_requests set state = 'rejected', decided_by = ${actor.userId}, decided_at = now(),
               comment = ${body.comment}
         where id = ${r.id}`,
    );
    await w.audit({
      code: r.period,
      detail: { requestId: r.id, closeAction: CLOSE_ACTION_LABELS[r.action], comment: body.comment },
    });
    return requestById(tx, r.id);
  });
}
