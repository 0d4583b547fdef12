import Decimal from 'decimal.js';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  ACCOUNT_DEFAULTS,
  ACCOUNT_ROLES,
  ACCOUNT_ROLE_LABELS,
  type AccountRow,
  type accountSaveSchema,
  type TrialBalance,
  type TrialRow,
  type VoucherDocType,
  type VoucherLine,
  type voucherListSchema,
  type VoucherPage,
  type VoucherRow,
  type VoucherView,
} from '@portal/contract/voucher';
import { queryRows, slicesOf, type Executor, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound, STALE_VERSION_MSG } from '../../platform/errors';
import { offsetOf, page } from '../../platform/http/list';
import { journalOf, totals, type Aux, type Journal, type MoneyEvent } from './journal';
import { voucherAccounts, voucherLines } from './schema';

/** 凭证字 of every voucher: 记 (记账凭证), numbered per period (docs/accounting.md "Numbers"). */
export const VOUCHER_WORD = '记';
export const voucherNo = (no: number) => `${VOUCHER_WORD}-${String(no).padStart(4, '0')}`;
const periodOf = (date: string) => date.slice(0, 7);

// ---- 科目映射

/** Seeds the default mapping; a role already mapped keeps what the office set. */
export async function seedAccounts(ex: Executor): Promise<void> {
  await ex
    .insert(voucherAccounts)
    .values(ACCOUNT_ROLES.map((role) => ({ role, ...ACCOUNT_DEFAULTS[role] })))
    .onConflictDoNothing();
}

export async function listAccounts(ex: Executor): Promise<AccountRow[]> {
  const rows = await ex.select().from(voucherAccounts);
  const byRole = new Map(rows.map((r) => [r.role, r]));
  return ACCOUNT_ROLES.map((role) => {
    const r = byRole.get(role);
    return {
      role,
      roleLabel: ACCOUNT_ROLE_LABELS[role],
      code: r?.code ?? ACCOUNT_DEFAULTS[role].code,
      name: r?.name ?? ACCOUNT_DEFAULTS[role].name,
      version: r?.version ?? 0,
      updatedAt: r?.updatedAt ?? null,
    };
  });
}

/** A role's mapping row (seeded first), locked, at the version the client read (else 409). */
export async function lockAccount(tx: Tx, role: string, version: number) {
  await seedAccounts(tx);
  const [row] = await tx.select().from(voucherAccounts).where(eq(voucherAccounts.role, role)).for('update');
  if (!row) throw notFound('科目映射');
  if (row.version !== version) throw conflict(STALE_VERSION_MSG);
  return row;
}

/**
 * Changes a role's account for the vouchers posted from now on (posted ones keep the code and
 * name they were posted with). One code names one account: another role mapped to the same code
 * must carry the same name.
 */
export async function saveAccount(
  tx: Tx,
  body: z.output<typeof accountSaveSchema>,
  actor: Actor,
): Promise<AccountRow> {
  return runCommand(
    tx,
    actor,
    { entity: 'voucherAccount', action: 'save', code: body.role },
    async (_tx, w) => {
      const before = await lockAccount(tx, body.role, body.version);
      const [clash] = await tx
        .select()
        .from(voucherAccounts)
        .where(and(eq(voucherAccounts.code, body.code), sql`${voucherAccounts.role} <> ${body.role}`));
      if (clash && clash.name !== body.name)
        throw badInput(`科目编码「${body.code}」已用作「${clash.name}」，同一编码的科目名称须一致`);
      await w.touch(voucherAccounts, eq(voucherAccounts.role, body.role), {
        code: body.code,
        name: body.name,
      });
      await w.audit({
        detail: {
          before: { code: before.code, name: before.name },
          after: { code: body.code, name: body.name },
        },
      });
      return (await listAccounts(tx)).find((a) => a.role === body.role)!;
    },
  );
}

// ---- posting

/** Voucher lines a statement (a month-end accrual's progress moves a slice at a time). */
const LINE_SLICE = 5000;

/** Told after each statement of a voucher's lines (a long run's progress, platform/progress.ts). */
export type LinesWritten = (lines: number) => Promise<void>;

interface PostLine {
  role: string;
  accountCode: string;
  accountName: string;
  summary: string;
  debit: string;
  credit: string;
  aux: Aux;
}

type VoucherHead = {
  date: string;
  summary: string;
  docType: VoucherDocType;
  docCode: string;
  redOf: number | null;
};

/**
 * The insert of voucher lines (numbered from `first` + 1) of the voucher `voucherId` (a value, or
 * the id of the statement's CTE `v`). The lines go as one JSON parameter: a month-end accrual has
 * two lines a contract (bench/README.md "Ten times the portfolio"), and eleven parameters a line
 * took most of a large accrual's time to build and bind. Amounts stay the exact decimal strings.
 * With `byRole`, each line's account is the role's in the mapping as it is now (voucher_accounts),
 * the line's own code and name (the defaults) where the role is not mapped.
 */
function insertLines(voucherId: SQL, lines: PostLine[], first: number, byRole: boolean): SQL {
  const rows = lines.map((l, i) => ({
    n: first + i + 1,
    r: l.role,
    ac: l.accountCode,
    an: l.accountName,
    s: l.summary,
    d: l.debit,
    c: l.credit,
    cc: l.aux.custCode ?? null,
    cn: l.aux.custName ?? null,
    no: l.aux.contractNo ?? null,
  }));
  const account = byRole ? sql`coalesce(a.code, x.ac), coalesce(a.name, x.an)` : sql`x.ac, x.an`;
  return sql`insert into voucher_lines (voucher_id, line_no, role, account_code, account_name, summary, debit, credit,
                                        cust_code, cust_name, contract_no)
    select ${voucherId}, x.n, x.r, ${account}, x.s, x.d, x.c, x.cc, x.cn, x.no
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
           as x(n int, r text, ac text, an text, s text, d numeric, c numeric, cc text, cn text, no text)
      ${byRole ? sql`left join voucher_accounts a on a.role = x.r` : sql``}
     order by x.n`;
}

/** Whether a database error is the closed month's refusal of vouchers_open_month (migration 0060). */
function monthClosed(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const x = e as { hint?: unknown; message?: unknown };
    if (
      x.hint === 'month-closed' ||
      (typeof x.message === 'string' && x.message.includes('已结账，不能记账'))
    )
      return true;
  }
  return false;
}

/**
 * A voucher's head, with its first lines in the same statement; its id. No number yet: the
 * period's next one is given when this transaction commits, by the trigger of migration 0053
 * (docs/accounting.md "Numbers"), so no posting waits on another's whole transaction for it. The
 * month's row is checked and taken FOR SHARE by the trigger vouchers_open_month as the voucher is
 * inserted (migration 0060: a close waits for this posting, or this posting for the close and is
 * refused); its refusal answers 409 in words.
 */
async function insertHead(
  tx: Tx,
  head: VoucherHead,
  actor: Actor,
  lines?: SQL,
  alongside?: Alongside,
): Promise<number> {
  const ctes = alongside?.statements.map((st, i) => sql`, ${sql.identifier(`a${i}`)} as (${st})`) ?? [];
  // Each write's rows, in the order given: the select runs them one after another, after the head.
  const answers =
    alongside?.statements.map(
      (_, i) =>
        sql`, (select coalesce(json_agg(${sql.identifier(`a${i}`)}), '[]'::json) from ${sql.identifier(`a${i}`)}) as ${sql.identifier(`r${i}`)}`,
    ) ?? [];
  const [v] = await queryRows<{ id: number } & Record<string, unknown>>(
    tx,
    sql`with v as (
          insert into vouchers (period, no, voucher_date, summary, doc_type, doc_code, red_of, created_by)
          values (${periodOf(head.date)}, null, ${head.date}, ${head.summary}, ${head.docType}, ${head.docCode},
                  ${head.redOf}, ${actor.userId || null})
          returning id
        )${lines ? sql`, l as (${lines})` : sql``}${sql.join(ctes)}
        select id::int as id${sql.join(answers)} from v`,
  ).catch((err: unknown) => {
    throw monthClosed(err) ? conflict(closedMonthMessage(head.date)) : err;
  });
  if (alongside) alongside.rows = alongside.statements.map((_, i) => v![`r${i}`] as unknown[]);
  return v!.id;
}

/**
 * Other modules' writes run by the statement that inserts a voucher's head, each a CTE after the
 * voucher's (the month's row is taken first, as when they ran next) and run in the order given, a
 * round trip less each inside the posting's transaction (bench/README.md "Fourteenth pass"): each
 * statement answers (`returning`) a row for each row it changed, and `rows` is set to them, a list
 * a statement, once the voucher is written. Left unset when no voucher is posted (every line
 * 0.00): the caller runs its writes itself then.
 */
export interface Alongside {
  statements: SQL[];
  rows?: unknown[][];
}

/**
 * Writes a voucher and its lines, in one statement up to LINE_SLICE lines (bench/README.md
 * "Write-off contention: the approval's statements and CPU"): a money approval posts it while it
 * holds its locks, so each round trip saved is time off every lock it holds. A larger voucher (a
 * month-end accrual) writes the rest a slice a statement, telling `onLines` after each.
 */
async function insertVoucher(
  tx: Tx,
  head: VoucherHead,
  lines: PostLine[],
  actor: Actor,
  /** The accounts are the mapping's by role (postJournal), not the lines' own. */
  byRole: boolean,
  onLines?: LinesWritten,
  alongside?: Alongside,
): Promise<number> {
  const t = totals(lines);
  // A programming error, never a user's: the journal rules always balance (docs/accounting.md).
  if (!t.debit.eq(t.credit)) throw new Error(`voucher of ${head.docType} ${head.docCode} does not balance`);
  const [first = [], ...rest] = slicesOf(lines, LINE_SLICE);
  const id = await insertHead(
    tx,
    head,
    actor,
    insertLines(sql`(select id from v)`, first, 0, byRole),
    alongside,
  );
  await onLines?.(first.length);
  let done = first.length;
  for (const slice of rest) {
    await tx.execute(insertLines(sql`${id}`, slice, done, byRole));
    done += slice.length;
    await onLines?.(slice.length);
  }
  return id;
}

/**
 * Whether a month is closed (月结, docs/accounting.md "Month close"). A read without a lock: the
 * posting's own check below is what holds under concurrency.
 */
export async function isClosed(ex: Executor, period: string): Promise<boolean> {
  const [m] = await queryRows<{ closed: boolean }>(
    ex,
    sql`select closed from book_months where period = ${period}`,
  );
  return m?.closed === true;
}

export const closedMonthMessage = (date: string) =>
  `凭证日期${date}所在的会计期间${periodOf(date)}已结账，不能记账；如须记入该月，请先反结账`;

/** Posts a journal through the mapping as it is now; nothing is posted when every line is 0.00. */
export async function postJournal(
  tx: Tx,
  j: Journal,
  actor: Actor,
  onLines?: LinesWritten,
  alongside?: Alongside,
): Promise<number | null> {
  if (j.lines.length === 0) return null;
  return insertVoucher(
    tx,
    { date: j.date, summary: j.summary, docType: j.docType, docCode: j.docCode, redOf: null },
    // The defaults here; the mapping's account of each role, where the office set one, in the insert.
    j.lines.map((l) => {
      const d = ACCOUNT_DEFAULTS[l.role];
      return { ...l, accountCode: d.code, accountName: d.name };
    }),
    actor,
    true,
    onLines,
    alongside,
  );
}

/**
 * The posting hook of the money modules: called by the owning module inside the transaction that
 * approves the event (docs/accounting.md "When a voucher is posted").
 */
export function postEvent(
  tx: Tx,
  event: MoneyEvent,
  actor: Actor,
  onLines?: LinesWritten,
  /** A write of the caller's run by the voucher's statement (Alongside). */
  alongside?: Alongside,
): Promise<number | null> {
  return postJournal(tx, journalOf(event), actor, onLines, alongside);
}

/**
 * 冲红: posts the mirror of every voucher of the source document not mirrored yet — the same
 * accounts, sides and auxiliaries with the amounts negated (红字冲销, docs/accounting.md "Red
 * reversal"). A posted voucher is never edited. A document posted before vouchers existed has none
 * to mirror, and nothing is posted.
 */
export async function reverseDocument(
  tx: Tx,
  of: { docType: VoucherDocType; docCode: string },
  as: { docType: VoucherDocType; docCode: string; date: string; summary: string },
  actor: Actor,
  onLines?: LinesWritten,
): Promise<number[]> {
  const originals = await queryRows<{ id: number; voucher_date: string }>(
    tx,
    sql`select v.id::int as id, to_char(v.voucher_date, 'YYYY-MM-DD') as voucher_date
          from vouchers v
         where v.doc_type = ${of.docType} and v.doc_code = ${of.docCode} and v.red_of is null
           and not exists (select 1 from vouchers r where r.red_of = v.id)
         order by v.id
           for update of v`,
  );
  const ids: number[] = [];
  for (const o of originals) {
    const id = await insertHead(
      tx,
      {
        // Never dated before what it mirrors.
        date: as.date < o.voucher_date ? o.voucher_date : as.date,
        summary: as.summary,
        docType: as.docType,
        docCode: as.docCode,
        redOf: o.id,
      },
      actor,
    );
    // The mirror in one statement, line for line in the original's order (a month-end accrual's
    // reversal has two lines a contract: it was read into the server and written back in slices).
    // A mirror of a balanced voucher balances; numeric has no negative zero.
    const mirrored = await queryRows<{ n: number }>(
      tx,
      sql`with m as (
            insert into voucher_lines (voucher_id, line_no, role, account_code, account_name, summary,
                                       debit, credit, cust_code, cust_name, contract_no)
            select ${id}, row_number() over (order by l.line_no), l.role, l.account_code, l.account_name,
                   '冲红 ' || l.summary, -l.debit, -l.credit, l.cust_code, l.cust_name, l.contract_no
              from voucher_lines l where l.voucher_id = ${o.id}
             order by l.line_no
            returning 1)
          select count(*)::int as n from m`,
    );
    await onLines?.(mirrored[0]?.n ?? 0);
    ids.push(id);
  }
  return ids;
}

// ---- reading

export const auxText = (l: { custCode: string | null; custName: string | null; contractNo: string | null }) =>
  [
    l.custName ? `客户:${l.custName}${l.custCode ? `(${l.custCode})` : ''}` : null,
    l.contractNo ? `合同:${l.contractNo}` : null,
  ]
    .filter(Boolean)
    .join(';');

type Filters = Pick<z.output<typeof voucherListSchema>, 'period' | 'docType' | 'docCode'>;

export function voucherWhere(f: Filters): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.period) parts.push(sql`v.period = ${f.period}`);
  if (f.docType) parts.push(sql`v.doc_type = ${f.docType}`);
  if (f.docCode) parts.push(sql`v.doc_code = ${f.docCode}`);
  return sql.join(parts, sql` and `);
}

interface HeadRow {
  id: number;
  period: string;
  no: number;
  voucher_date: string;
  summary: string;
  doc_type: VoucherDocType;
  doc_code: string;
  red_of_period: string | null;
  red_of_no: number | null;
  amount: string;
  created_at: string;
}

const HEAD = sql`select v.id::int as id, v.period, v.no, to_char(v.voucher_date, 'YYYY-MM-DD') as voucher_date,
       v.summary, v.doc_type, v.doc_code, o.period as red_of_period, o.no as red_of_no,
       (select coalesce(sum(l.debit), 0)::numeric(18,2)::text from voucher_lines l where l.voucher_id = v.id) as amount,
       to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
  from vouchers v left join vouchers o on o.id = v.red_of`;

const toRow = (r: HeadRow): VoucherRow => ({
  voucherId: r.id,
  period: r.period,
  voucherNo: voucherNo(r.no),
  voucherDate: r.voucher_date,
  summary: r.summary,
  docType: r.doc_type,
  docCode: r.doc_code,
  redOfNo: r.red_of_no === null ? null : `${r.red_of_period} ${voucherNo(r.red_of_no)}`,
  amount: r.amount,
  createdAt: r.created_at,
});

export async function listVouchers(
  ex: Executor,
  q: z.output<typeof voucherListSchema>,
): Promise<VoucherPage> {
  const where = voucherWhere(q);
  const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
  const order =
    q.orderBy === 'voucherDate'
      ? sql`v.voucher_date ${dir}, v.period ${dir}, v.no ${dir}`
      : q.orderBy === 'voucherNo'
        ? sql`v.period ${dir}, v.no ${dir}`
        : sql`v.period desc, v.no desc`;
  const rows = await queryRows<HeadRow>(
    ex,
    sql`${HEAD} where ${where} order by ${order} limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const [n] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from vouchers v where ${where}`,
  );
  return page(rows.map(toRow), n?.n ?? 0, q);
}

export async function viewVoucher(ex: Executor, id: number): Promise<VoucherView> {
  const [head] = await queryRows<HeadRow>(ex, sql`${HEAD} where v.id = ${id}`);
  if (!head) throw notFound('凭证');
  const lines = await ex
    .select()
    .from(voucherLines)
    .where(eq(voucherLines.voucherId, id))
    .orderBy(asc(voucherLines.lineNo));
  return {
    ...toRow(head),
    lines: lines.map((l): VoucherLine => ({
      lineNo: l.lineNo,
      summary: l.summary,
      accountCode: l.accountCode,
      accountName: l.accountName,
      debit: l.debit,
      credit: l.credit,
      aux: auxText(l),
    })),
  };
}

// ---- 试算平衡

const fmt = (d: Decimal) => d.toFixed(2);
/** A signed balance (debit positive) as its debit and credit columns. */
const sides = (b: Decimal) => ({
  debit: b.gt(0) ? fmt(b) : '0.00',
  credit: b.lt(0) ? fmt(b.neg()) : '0.00',
});

/**
 * 科目余额表 of a period: each account's opening balance (every voucher before the period), its
 * debit and credit movement in the period, and its closing balance, shown on the side it falls.
 * A red voucher's negative amounts lower the movement of the side they are on. Read from the
 * per-period account totals the postings keep (voucher_account_periods, migration 0038), not from
 * every line ever posted.
 */
export async function trialBalance(ex: Executor, period: string): Promise<TrialBalance> {
  const rows = await queryRows<{
    code: string;
    name: string;
    opening: string;
    debit: string;
    credit: string;
  }>(
    ex,
    sql`select t.account_code as code,
               coalesce((select a.name from voucher_accounts a where a.code = t.account_code order by a.role limit 1),
                        max(t.account_name)) as name,
               coalesce(sum(t.debit - t.credit) filter (where t.period < ${period}), 0)::text as opening,
               coalesce(sum(t.debit) filter (where t.period = ${period}), 0)::text as debit,
               coalesce(sum(t.credit) filter (where t.period = ${period}), 0)::text as credit
          from voucher_account_periods t
         where t.period <= ${period}
         group by t.account_code
         order by t.account_code`,
  );
  const sum = {
    od: new Decimal(0),
    oc: new Decimal(0),
    d: new Decimal(0),
    c: new Decimal(0),
    cd: new Decimal(0),
    cc: new Decimal(0),
  };
  const out: TrialRow[] = rows.map((r) => {
    const opening = new Decimal(r.opening);
    const closing = opening.plus(r.debit).minus(r.credit);
    const o = sides(opening);
    const c = sides(closing);
    sum.od = sum.od.plus(o.debit);
    sum.oc = sum.oc.plus(o.credit);
    sum.d = sum.d.plus(r.debit);
    sum.c = sum.c.plus(r.credit);
    sum.cd = sum.cd.plus(c.debit);
    sum.cc = sum.cc.plus(c.credit);
    return {
      accountCode: r.code,
      accountName: r.name,
      openingDebit: o.debit,
      openingCredit: o.credit,
      debit: fmt(new Decimal(r.debit)),
      credit: fmt(new Decimal(r.credit)),
      closingDebit: c.debit,
      closingCredit: c.credit,
    };
  });
  return {
    period,
    rows: out,
    totals: {
      openingDebit: fmt(sum.od),
      openingCredit: fmt(sum.oc),
      debit: fmt(sum.d),
      credit: fmt(sum.c),
      closingDebit: fmt(sum.cd),
      closingCredit: fmt(sum.cc),
    },
    balanced: sum.od.eq(sum.oc) && sum.d.eq(sum.c) && sum.cd.eq(sum.cc),
  };
}
