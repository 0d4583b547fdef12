import Decimal from 'decimal.js';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { formatYuan } from '@portal/contract/format';
import type {
  DebtorLedgerRow,
  DebtorLineRow,
  DebtorLineState,
  DebtorLineView,
  debtorLineSaveSchema,
} from '@portal/contract/debtor';
import type { z } from 'zod';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { nextCode } from '../../platform/db/codes';
import { badInput, conflict, notFound } from '../../platform/errors';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { rowScopeCondition } from '../../platform/auth/row-scope';
import { allowSelfApproval, SELF_APPROVAL_MSG } from '../workflow';
import { linkDebtors } from './link';
import { debtorLedger, debtorLines } from './schema';

/**
 * Debtor lines (债务人额度, docs/credit.md "Debtor lines"). A line limits what the effective
 * contracts of every seller may hold in receivables on one debtor; a debtor without an active
 * line is not limited. Every movement runs in the transaction of the document that causes it;
 * lines are locked one at a time in debtor-code order (`select … for update`), the same order
 * everywhere, so two approvals touching the same debtors queue instead of deadlocking, and the
 * figures each checks are the figures it writes over (backed by the table's CHECK).
 */

type LineRow = typeof debtorLines.$inferSelect;
const ZERO = new Decimal(0);
const fmt = (d: Decimal | string) => new Decimal(d).toFixed(2);
const LINE = '债务人额度';

/** The document a movement belongs to. */
export interface DebtorDoc {
  docType: string;
  docCode: string;
  date: string;
  actor: Actor;
  reason: string;
}

async function lockLine(tx: Tx, debtorCode: string): Promise<LineRow | undefined> {
  const [row] = await tx
    .select()
    .from(debtorLines)
    .where(eq(debtorLines.debtorCode, debtorCode))
    .for('update');
  return row;
}

function shortMessage(line: LineRow, amount: Decimal): string {
  return (
    `债务人额度不足：债务人「${line.debtorName}」额度 ${formatYuan(line.limitAmount)}，` +
    `已占用 ${formatYuan(line.occupiedAmount)}，可用 ${formatYuan(new Decimal(line.limitAmount).minus(line.occupiedAmount))}，` +
    `本次占用 ${formatYuan(amount)}`
  );
}

/** Moves `amount` (signed) on a locked active line for a contract, with its ledger row. */
async function move(
  tx: Tx,
  line: LineRow,
  contractId: number,
  amount: Decimal,
  doc: DebtorDoc,
): Promise<LineRow> {
  const occupied = new Decimal(line.occupiedAmount).plus(amount);
  if (occupied.gt(line.limitAmount)) throw conflict(shortMessage(line, amount));
  const [after] = await tx
    .update(debtorLines)
    .set({ occupiedAmount: sql`${debtorLines.occupiedAmount} + ${fmt(amount)}` })
    .where(eq(debtorLines.id, line.id))
    .returning();
  await tx.insert(debtorLedger).values({
    lineId: line.id,
    movement: amount.gte(0) ? 'occupy' : 'release',
    amount: fmt(amount.abs()),
    limitAfter: after!.limitAmount,
    occupiedAfter: after!.occupiedAmount,
    contractId,
    docType: doc.docType,
    docCode: doc.docCode,
    reason: doc.reason,
    bizDate: doc.date,
    actorId: doc.actor.userId,
    actorName: doc.actor.userName,
  });
  return after!;
}

/**
 * Makes what a contract holds on the debtor lines equal its receivables per debtor (`hold`
 * 'receivables': an approval, a change, a reopened contract) or nothing ('none': settled), in
 * the caller's transaction. Raising a hold checks the line: 409 naming the debtor and the
 * figures, and the whole request rolls back.
 */
export async function syncContractDebtors(
  tx: Tx,
  contractId: number,
  hold: 'receivables' | 'none',
  doc: DebtorDoc,
): Promise<void> {
  const held = await queryRows<{ code: string; amount: string }>(
    tx,
    sql`select l.debtor_code as code,
               sum(case d.movement when 'occupy' then d.amount else -d.amount end)::text as amount
          from debtor_ledger d join debtor_lines l on l.id = d.line_id
         where d.contract_id = ${contractId}
         group by l.debtor_code`,
  );
  const target =
    hold === 'none'
      ? []
      : await queryRows<{ code: string; amount: string }>(
          tx,
          sql`select debtor_code as code, sum(amount)::text as amount
                from contract_receivables
               where contract_id = ${contractId} and debtor_code is not null
               group by debtor_code`,
        );
  const want = new Map(target.map((t) => [t.code, new Decimal(t.amount)]));
  const have = new Map(held.map((h) => [h.code, new Decimal(h.amount)]));
  const codes = [...new Set([...want.keys(), ...have.keys()])].sort();
  // Every line concerned is locked first, in code order; then releases, then occupations: a
  // contract moving its receivables between debtors never needs room it is about to give back.
  const locked = new Map<string, LineRow>();
  for (const code of codes) {
    const line = await lockLine(tx, code);
    if (line && line.state === 'active') locked.set(code, line);
  }
  for (const pass of ['release', 'occupy'] as const) {
    for (const [code, line] of locked) {
      const delta = (want.get(code) ?? ZERO).minus(have.get(code) ?? ZERO);
      if (delta.isZero() || (pass === 'release') !== delta.lt(0)) continue;
      locked.set(code, await move(tx, line, contractId, delta, doc));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Lines: proposals and their approval (four eyes)

const lineSelect = sql`biz_code as "bizCode", debtor_code as "debtorCode", debtor_name as "debtorName", state,
  limit_amount::text as "limitAmount", occupied_amount::text as "occupiedAmount",
  (limit_amount - occupied_amount)::text as "availableAmount", pending_limit::text as "pendingLimit",
  pending_by_name as "pendingByName", pending_remark as "pendingRemark", version,
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "updatedAt"`;

export async function listLines(ex: Executor): Promise<DebtorLineRow[]> {
  return queryRows<DebtorLineRow>(
    ex,
    sql`select ${lineSelect} from debtor_lines order by debtor_name, biz_code`,
  );
}

/** What a movement of a contract outside the reader's data scope shows instead of its reason. */
export const OUTSIDE_SCOPE_REASON = '数据范围以外的合同';

/**
 * One line with its movements. The line's figures are the debtor's across every seller (that is
 * what it limits), but a movement of a contract outside the reader's data scope names neither the
 * document, nor its reason (which quotes the contract number), nor who made it (docs/credit.md
 * "Debtor lines", SECURITY.md "Row scope").
 */
export async function viewLine(ex: Executor, bizCode: string, user: ScopeUser): Promise<DebtorLineView> {
  const [line] = await queryRows<DebtorLineRow>(
    ex,
    sql`select ${lineSelect} from debtor_lines where biz_code = ${bizCode}`,
  );
  if (!line) throw notFound(LINE);
  const ledger = await ex
    .select({
      movement: debtorLedger.movement,
      amount: debtorLedger.amount,
      limitAfter: debtorLedger.limitAfter,
      occupiedAfter: debtorLedger.occupiedAfter,
      docType: debtorLedger.docType,
      docCode: debtorLedger.docCode,
      reason: debtorLedger.reason,
      bizDate: debtorLedger.bizDate,
      actorName: debtorLedger.actorName,
      at: debtorLedger.at,
      visible: sql<boolean>`(${debtorLedger.contractId} is null or exists (
        select 1 from contracts r where r.id = ${debtorLedger.contractId} and ${rowScopeCondition('contract', user)}))`,
    })
    .from(debtorLedger)
    .innerJoin(debtorLines, eq(debtorLines.id, debtorLedger.lineId))
    .where(eq(debtorLines.bizCode, bizCode))
    .orderBy(desc(debtorLedger.id))
    .limit(500);
  return {
    ...line,
    ledger: ledger.map(({ visible, ...l }) =>
      visible
        ? ({ ...l, at: l.at ?? '' } as DebtorLedgerRow)
        : ({
            ...l,
            docCode: '',
            reason: OUTSIDE_SCOPE_REASON,
            actorName: null,
            at: l.at ?? '',
          } as DebtorLedgerRow),
    ),
  };
}

/**
 * Proposes a line for a debtor, or a new limit for its line: nothing is in force until another
 * person approves (passLine). A proposal replaces an earlier one not yet decided.
 */
export async function saveLine(
  db: Db,
  input: z.output<typeof debtorLineSaveSchema>,
  actor: Actor,
): Promise<{ bizCode: string; version: number }> {
  const cmd = { entity: 'debtorLine', action: 'propose', version: input.version, what: LINE };
  return runCommand(db, actor, cmd, async (tx, w) => {
    const [debtor] = await queryRows<{ name: string }>(
      tx,
      sql`select comp_name as name from companies where comp_code = ${input.debtorCode} and deleted_at is null`,
    );
    if (!debtor) throw badInput('债务人不存在');
    await linkDebtors(tx, [{ name: debtor.name, code: input.debtorCode }], () => '债务人');
    const proposal = {
      pendingLimit: fmt(input.limitAmount),
      pendingRemark: input.remark ?? null,
      pendingBy: actor.userId,
      pendingByName: actor.userName,
      pendingAt: sql`now()`,
    };
    let line: Pick<LineRow, 'bizCode' | 'version'>;
    if (!input.bizCode) {
      const [exists] = await tx
        .select({ code: debtorLines.bizCode })
        .from(debtorLines)
        .where(eq(debtorLines.debtorCode, input.debtorCode));
      if (exists) throw badInput(`债务人「${debtor.name}」已有额度 ${exists.code}，请修改该额度`);
      const bizCode = await nextCode(tx, 'debtor_line');
      [line] = (await tx
        .insert(debtorLines)
        .values({
          bizCode,
          debtorCode: input.debtorCode,
          debtorName: debtor.name,
          createdBy: actor.userId,
          updatedBy: actor.userId,
          ...proposal,
        })
        .onConflictDoNothing()
        .returning()) as [LineRow];
      if (!line) throw conflict(`债务人「${debtor.name}」的额度已由他人新增，请刷新后重试`);
    } else {
      if (input.version === undefined) throw badInput('版本号不能为空');
      const [held] = await tx
        .select({ debtorCode: debtorLines.debtorCode })
        .from(debtorLines)
        .where(eq(debtorLines.bizCode, input.bizCode));
      if (held && held.debtorCode !== input.debtorCode) throw badInput('债务人额度的债务人不能修改');
      // The command's version: 404 when the line is gone, 409 when another save came first.
      await w.update(debtorLines, eq(debtorLines.bizCode, input.bizCode), proposal);
      line = { bizCode: input.bizCode, version: input.version + 1 };
    }
    await w.audit({
      code: line.bizCode,
      detail: {
        debtorCode: input.debtorCode,
        limitAmount: fmt(input.limitAmount),
        remark: input.remark ?? null,
      },
    });
    return { bizCode: line.bizCode, version: line.version };
  });
}

/** A decided proposal: gone (the command's `w.touch` moves the line's version on). */
const DECIDED = {
  pendingLimit: null,
  pendingRemark: null,
  pendingBy: null,
  pendingByName: null,
  pendingAt: null,
};

/** Locks the line named by code and checks the proposal and the version the decider saw. */
async function lockProposal(tx: Tx, bizCode: string, version: number): Promise<LineRow> {
  const [code] = await tx
    .select({ debtorCode: debtorLines.debtorCode })
    .from(debtorLines)
    .where(eq(debtorLines.bizCode, bizCode));
  if (!code) throw notFound(LINE);
  const line = (await lockLine(tx, code.debtorCode))!;
  if (line.version !== version) throw conflict('数据已被他人修改，请刷新后重试');
  if (line.pendingLimit === null) throw conflict('该债务人额度没有待审核的调整');
  return line;
}

/**
 * Approves the proposal: never by its maker (unless 审批设置 allows self-approval, as for every
 * document). A first approval puts the line in force and occupies it with the receivables the
 * effective contracts already hold on the debtor; a new limit may not go below what is occupied
 * (409 naming the figures).
 */
export async function passLine(
  db: Db,
  bizCode: string,
  version: number,
  actor: Actor,
  today: string,
): Promise<{ bizCode: string; version: number; state: DebtorLineState }> {
  return runCommand(db, actor, { entity: 'debtorLine', action: 'pass', code: bizCode }, async (tx, w) => {
    const line = await lockProposal(tx, bizCode, version);
    if (line.pendingBy === actor.userId && !(await allowSelfApproval(tx))) throw conflict(SELF_APPROVAL_MSG);
    const limit = new Decimal(line.pendingLimit!);
    const doc: DebtorDoc = { docType: 'debtorLine', docCode: line.bizCode, date: today, actor, reason: '' };
    let occupied = new Decimal(line.occupiedAmount);
    const first = line.state === 'pending';
    const holders = first
      ? await queryRows<{ id: number; contractNo: string; amount: string }>(
          tx,
          sql`select k.id, k.contract_no as "contractNo", sum(r.amount)::text as amount
                from contract_receivables r join contracts k on k.id = r.contract_id
               where r.debtor_code = ${line.debtorCode} and k.deleted_at is null and k.status = 'effective'
               group by k.id, k.contract_no order by k.id`,
        )
      : [];
    if (first) occupied = holders.reduce((s, h) => s.plus(h.amount), ZERO);
    if (occupied.gt(limit))
      throw conflict(
        `债务人额度不能低于已占用：债务人「${line.debtorName}」已占用 ${formatYuan(occupied)}，` +
          `拟定额度 ${formatYuan(limit)}`,
      );
    // Locked by lockProposal, which checked the version the decider saw.
    await w.touch(debtorLines, eq(debtorLines.id, line.id), {
      state: 'active',
      limitAmount: fmt(limit),
      ...DECIDED,
    });
    const [after] = await tx.select().from(debtorLines).where(eq(debtorLines.id, line.id));
    await tx.insert(debtorLedger).values({
      lineId: line.id,
      movement: 'limit',
      amount: fmt(limit.minus(line.limitAmount)),
      limitAfter: fmt(limit),
      occupiedAfter: after!.occupiedAmount,
      docType: doc.docType,
      docCode: doc.docCode,
      reason: first ? '债务人额度生效' : '债务人额度调整',
      bizDate: today,
      actorId: actor.userId,
      actorName: actor.userName,
    });
    let current = after!;
    for (const h of holders) {
      current = await move(tx, current, h.id, new Decimal(h.amount), {
        ...doc,
        reason: `额度生效时合同 ${h.contractNo} 已有应收账款`,
      });
    }
    await w.audit({ detail: { limitAmount: fmt(limit), occupied: current.occupiedAmount } });
    return { bizCode: line.bizCode, version: current.version, state: current.state as DebtorLineState };
  });
}

/** Rejects the proposal: the line stays as it was. */
export async function rejectLine(
  db: Db,
  bizCode: string,
  version: number,
  actor: Actor,
): Promise<{ bizCode: string; version: number }> {
  return runCommand(db, actor, { entity: 'debtorLine', action: 'reject', code: bizCode }, async (tx, w) => {
    const line = await lockProposal(tx, bizCode, version);
    // Locked by lockProposal, which checked the version: the touch moves it on by one.
    await w.touch(debtorLines, eq(debtorLines.id, line.id), DECIDED);
    await w.audit({ detail: { limitAmount: line.pendingLimit } });
    return { bizCode: line.bizCode, version: line.version + 1 };
  });
}

/** The active lines by debtor code (for the concentration view). */
export async function activeLimits(ex: Executor): Promise<Map<string, string>> {
  const rows = await ex
    .select({ code: debtorLines.debtorCode, limit: debtorLines.limitAmount })
    .from(debtorLines)
    .where(eq(debtorLines.state, 'active'))
    .orderBy(asc(debtorLines.debtorCode));
  return new Map(rows.map((r) => [r.code, r.limit]));
}
