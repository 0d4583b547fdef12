import Decimal from 'decimal.js';
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client';
import { prebuilt } from '../../platform/db/prebuilt';
import type { Actor } from '../../platform/db/audit';
import { laterOwner, runCommand } from '../../platform/db/command';
import { conflict, notFound } from '../../platform/errors';
import { releaseRepaid, reoccupy } from '../credit';
import { syncContractDebtors } from '../debtor';
import { contractChanges, contractPlanItems, contracts } from '../contract/schema';
import { incomes } from '../income/schema';
import {
  lockContract,
  planAndLinesForPosting,
  planPaymentsMove,
  recordWriteOff,
  reversePlanSettlement,
  reverseWriteOff,
  settlePlanItems,
  type StoredLine,
} from '../contract';
import { allocatedMove, lockIncome, moveAllocated } from '../income';
import { checkPaidDate, requireApprovedIncome, requireWriteOffable, resolveLines } from './service';
import { contractRule, itemPayment, openAsOf, planItems } from '../contract';
import { paidLines, paidReds, paids, paidWaivers } from './schema';
import type { Line, Waiver } from './allocation';
import { postEvent, reverseDocument, type Alongside } from '../voucher';

/**
 * The write-off to approve, its contract locked, and its incoming as it is: the approval's first
 * read, built once (prebuilt: the three whole rows are most of its building). Of the write-off and
 * the incoming only what the approval uses: the driver builds a parser a column of every answer
 * (bench/README.md "Fourteenth pass").
 */
const paidToPost = prebuilt('paid_to_post', (ex) =>
  ex
    .select({
      paid: { id: paids.id, incomeId: paids.incomeId, kind: paids.kind, paidDate: paids.paidDate },
      contract: contracts,
      income: {
        id: incomes.id,
        state: incomes.state,
        valueDate: incomes.valueDate,
        deletedAt: incomes.deletedAt,
      },
    })
    .from(paids)
    .innerJoin(contracts, eq(contracts.id, paids.contractId))
    .leftJoin(incomes, eq(incomes.id, paids.incomeId))
    .where(and(eq(paids.bizCode, sql.placeholder('code')), isNull(paids.deletedAt)))
    .for('update', { of: contracts }),
);

async function storedLines(tx: Tx, paidId: number): Promise<Line[]> {
  const rows = await tx.select().from(paidLines).where(eq(paidLines.paidId, paidId));
  return rows.map((r) => ({
    itemId: r.planItemId,
    component: r.component as Line['component'],
    amount: r.amount,
  }));
}

const linesWithItems = prebuilt('paid_lines_with_items', (ex) =>
  ex
    .select({
      itemId: paidLines.planItemId,
      component: paidLines.component,
      amount: paidLines.amount,
      period: contractPlanItems.period,
      by: contractPlanItems.supersededBy,
    })
    .from(paidLines)
    .innerJoin(contractPlanItems, eq(contractPlanItems.id, paidLines.planItemId))
    .where(eq(paidLines.paidId, sql.placeholder('paidId'))),
);

/**
 * The write-off's lines with their items' period and re-planning mark, one statement: the
 * approval checks that no item was re-planned since the save (refuseReplanned) without a
 * statement of its own.
 */
async function storedLinesWithItems(
  tx: Tx,
  paidId: number,
): Promise<{ lines: Line[]; superseded: { period: number; by: string }[] }> {
  return linesAndSuperseded(await linesWithItems(tx, { paidId }));
}

/** The stored lines, and the items among them re-planned since (`by`), earliest period first. */
function linesAndSuperseded(rows: readonly StoredLine[]): {
  lines: Line[];
  superseded: { period: number; by: string }[];
} {
  return {
    lines: rows.map((r) => ({
      itemId: r.itemId,
      component: r.component as Line['component'],
      amount: r.amount,
    })),
    superseded: rows
      .filter((r): r is typeof r & { by: string } => r.by !== null)
      .map((r) => ({ period: r.period, by: r.by }))
      .sort((a, b) => a.period - b.period),
  };
}

async function storedWaivers(tx: Tx, paidId: number): Promise<Waiver[]> {
  const rows = await tx.select().from(paidWaivers).where(eq(paidWaivers.paidId, paidId));
  return rows.map((r) => ({
    itemId: r.planItemId,
    component: r.component as Waiver['component'],
    amount: r.amount,
  }));
}

/**
 * The incoming a write-off draws on. A repayment carried in by the 期初导入 (kind 'opening') has
 * none: it was received before the portal, is never approved or reversed here (docs/money-lifecycle.md
 * "Opening balances").
 */
function incomeOf(paid: { incomeId: number | null }): number {
  if (paid.incomeId === null) throw conflict('期初导入或回购结清的核销记录不能审核或冲红');
  return paid.incomeId;
}

const same = (a: readonly (Line | Waiver)[], b: readonly (Line | Waiver)[]) => {
  const norm = (ls: readonly (Line | Waiver)[]) =>
    ls
      .map((l) => `${l.itemId}/${l.component}=${new Decimal(l.amount).toFixed(2)}`)
      .sort()
      .join(',');
  return norm(a) === norm(b);
};

/**
 * 409 when an item the write-off was saved against has been re-planned since (a contract change
 * or another document superseded it): `first` is the earliest such item (storedLinesWithItems),
 * and the message names its period and the document.
 */
async function refuseReplanned(tx: Tx, first: { period: number; by: string } | undefined): Promise<void> {
  if (!first) return;
  const [change] = await tx
    .select({ code: contractChanges.bizCode })
    .from(contractChanges)
    .where(eq(contractChanges.bizCode, first.by));
  const by = change ? `合同变更 ${change.code}` : `单据 ${first.by}`;
  throw conflict(`核销保存后还款计划已变更：第${first.period}期已被${by} 重新计划，请重新生成核销明细`);
}

/**
 * Approval of a write-off (the workflow's onApprove, one transaction). Locks the contract, its
 * plan items and the incoming in that order, re-runs every check against the figures as they
 * are now, then posts: plan items' paid amounts rise, the incoming's allocated rises, the
 * principal repaid releases the credit line (cyclical lines only restore), and the contract
 * settles when nothing is left open.
 */
export async function postPaid(tx: Tx, code: string, actor: Actor, today: string): Promise<SQL[]> {
  return runCommand(tx, actor, { entity: 'paid', action: 'post', code }, async (_tx, w) => {
    // Every read below runs while the approval holds its locks, so each statement saved is a round
    // trip less per approval (bench/README.md "Write-off contention: round trips").
    // The write-off, its contract locked (lockContract's lock, in the same statement), and its
    // incoming as it is: the incoming's row is taken last, by the guarded update the voucher's
    // insert runs (allocatedMove), so approvals drawing on one incoming queue only for the end of
    // each other's transaction (docs/money-rules.md "Write-off approval").
    const [found] = await paidToPost(tx, { code });
    if (!found) throw conflict('核销单据不存在');
    const { paid, contract, income } = found;
    if (paid.incomeId === null) throw conflict(CLOSURE_ALONE);
    if (contract.deletedAt) throw notFound('合同');
    if (!income || income.deletedAt) throw notFound('来款');
    requireWriteOffable(contract);
    // The plan items locked, their payments, the latest posting date and the write-off's lines
    // with their items' re-planning mark, one statement after the contract's lock (a contract
    // without a live item reads its lines on their own).
    const plan = await planAndLinesForPosting(tx, contract.id, paid.id);
    const stored = plan.lines ? linesAndSuperseded(plan.lines) : await storedLinesWithItems(tx, paid.id);
    const given = stored.lines;
    await refuseReplanned(tx, stored.superseded[0]);
    // The rule's order was checked at save; other postings since may have changed what it would
    // suggest, so only the bounds are checked again (a settlement is recomputed and must agree).
    const kind = paid.kind === 'settlement' ? 'settlement' : 'manual';
    const resolved = await resolveLines(tx, kind, given, contract, paid.paidDate, true, undefined, plan);
    if (
      paid.kind === 'settlement' &&
      (!same(resolved.lines, given) || !same(resolved.waivers, await storedWaivers(tx, paid.id)))
    )
      throw conflict('提前结清金额已变化，请重新生成核销明细');
    // Refused early in words; the guarded update below is what holds under concurrency.
    requireApprovedIncome(income);
    await checkPaidDate(tx, paid.paidDate, income, contract, today, resolved);

    // The plan items' guarded update: a settlement's (with its waivers) on its own, now; a manual
    // write-off's runs in the voucher's statement below (planPaymentsMove), and its rows as
    // they are after it are known only then: the settled check follows the voucher.
    const early = resolved.waivers.length
      ? await settlePlanItems(tx, resolved.lines, resolved.waivers)
      : undefined;
    const itemsMove = early ? undefined : planPaymentsMove(resolved.items, resolved.lines);

    // Its voucher, split by component, in this transaction (docs/accounting.md "Journals").
    const part = (component: Line['component']) =>
      resolved.lines
        .filter((l) => l.component === component)
        .reduce((t, l) => t.plus(l.amount), new Decimal(0))
        .toFixed(2);
    // The rows every write-off of a customer or an incoming shares last (docs/money-rules.md
    // "Approving a write-off: the incoming last"): the incoming's, locked by the guarded update
    // that is its check (approved, allocated + amount ≤ amount, else 409), run by the voucher's
    // statement right after its head (a round trip less), then the credit line's chain; each held
    // only for what is left of the approval.
    const allocation = allocatedMove(income.id, resolved.amount);
    const alongside: Alongside = {
      statements: itemsMove ? [itemsMove.statement, allocation.statement] : [allocation.statement],
    };
    await postEvent(
      tx,
      {
        kind: 'writeOff',
        docCode: code,
        date: paid.paidDate,
        principal: part('PRINCIPAL'),
        interest: part('INTEREST'),
        fee: part('FEE'),
        penalty: part('PENALTY'),
        aux: { custCode: contract.custCode, custName: contract.custName, contractNo: contract.contractNo },
      },
      actor,
      undefined,
      alongside,
    );
    // No voucher (nothing to post): the updates on their own, in the same order.
    let settledItems = early;
    if (alongside.rows) {
      if (itemsMove) settledItems = itemsMove.settled(alongside.rows[0]);
      allocation.check(alongside.rows[alongside.rows.length - 1]);
    } else {
      settledItems ??= await settlePlanItems(tx, resolved.lines, resolved.waivers);
      await moveAllocated(tx, income.id, resolved.amount);
    }
    const changed = new Map(settledItems!.map((r) => [r.id, r]));
    // Settled when every component of every item is paid, penalty included (accrued to the date).
    // The items and payments as they now are, without reading them again: the locked items as read,
    // those this write-off changed as their updates answered, and the payments as read plus this
    // write-off's lines on its date (what paymentsOf(items, paid.id) would read: nothing else can
    // post on the contract while its row and items are locked).
    const items = resolved.items.map((i) => changed.get(i.id) ?? i);
    const period = new Map(items.map((i) => [i.id, i.period]));
    const payments = [
      ...resolved.payments,
      ...resolved.lines.map((l) => itemPayment(period.get(l.itemId)!, l.component, l.amount, paid.paidDate)),
    ];
    // The penalty's accrual only when everything else is paid (it cannot settle otherwise): the
    // accrual of every item is the approval's largest computation in node.
    const settled =
      items.every(
        (i) =>
          new Decimal(i.principalPaid).eq(i.principal) &&
          new Decimal(i.interestPaid).eq(i.interest) &&
          new Decimal(i.feePaid).eq(i.fee),
      ) &&
      !openAsOf(items, payments, paid.paidDate, contractRule(contract)).some((o) =>
        new Decimal(o.open.PENALTY).gt(0),
      );
    const moved = await releaseRepaid(tx, contract, resolved.principal, {
      docType: 'paid',
      docCode: code,
      date: today,
      actor,
      reason: `来款核销 ${code} 还本`,
    });

    // Written by the state's update below when the contract stays open (nothing reads its row
    // again); a settled contract's status is read by syncContractDebtors first.
    await recordWriteOff(tx, contract.id, { released: moved.toFixed(2), settled }, laterOwner('paid', code));
    // A settled contract holds nothing on its debtors' lines any more (docs/credit.md "Debtor lines").
    if (settled)
      await syncContractDebtors(tx, contract.id, 'none', {
        docType: 'paid',
        docCode: code,
        date: today,
        actor,
        reason: `来款核销 ${code} 结清合同`,
      });
    await w.audit({
      detail: {
        amount: resolved.amount.toFixed(2),
        principal: resolved.principal.toFixed(2),
        released: moved.toFixed(2),
        settled,
      },
    });
    // The write-off's posted figures, written by the workflow's guarded update that turns it
    // approved (one statement for the row, docs/architecture.md "Round trips of an approval").
    return [
      sql`amount = ${resolved.amount.toFixed(2)}`,
      sql`principal = ${resolved.principal.toFixed(2)}`,
      // What the ledger moved: 0.00 on a one-off line (docs/money-rules.md "释放额度").
      sql`released = ${moved.toFixed(2)}`,
      sql`settled_contract = ${settled}`,
      sql`posting_seq = nextval('paid_posting_seq')`,
    ];
  });
}

/** A closing write-off moves only with its 回购单 or 核销坏账 (docs/buyback.md, docs/accounting.md). */
const CLOSURE_ALONE = '回购结转或核销坏账的核销只能随其单据审核或冲红';

/** Why a write-off cannot be reversed now (null when it can). */
export async function redRefusal(tx: Tx, paid: typeof paids.$inferSelect): Promise<string | null> {
  if (paid.incomeId === null) return CLOSURE_ALONE;
  if (paid.state !== 'approved') return '只能冲红已审核的核销';
  if (paid.red) return '该核销已冲红';
  const [later] = await tx
    .select({ code: paids.bizCode, kind: paids.kind })
    .from(paids)
    .where(
      and(
        eq(paids.contractId, paid.contractId),
        eq(paids.state, 'approved'),
        eq(paids.red, false),
        isNull(paids.deletedAt),
        gt(paids.postingSeq, paid.postingSeq ?? 0),
      ),
    )
    .limit(1);
  if (later?.kind === 'buyback') return '该合同已回购，请先冲红回购单';
  if (later?.kind === 'badDebt') return '该合同已核销坏账，请先冲红核销坏账单';
  return later ? `该合同在此核销之后还有已审核的核销 ${later.code}，请先冲红最近的核销` : null;
}

/**
 * Approval of a paid-red entry: posts exactly the negative of its write-off — plan items' paid
 * amounts and waived interest restored, the incoming's allocated lowered, the released credit
 * re-occupied, a settled contract back in force — and marks the write-off 已冲红.
 */
export async function postRed(tx: Tx, redCode: string, actor: Actor, today: string): Promise<void> {
  await runCommand(tx, actor, { entity: 'paidRed', action: 'post', code: redCode }, async (_tx, w) => {
    const [red] = await tx
      .select()
      .from(paidReds)
      .where(and(eq(paidReds.bizCode, redCode), isNull(paidReds.deletedAt)));
    if (!red) throw conflict('冲红单据不存在');
    const [paid] = await tx.select().from(paids).where(eq(paids.id, red.paidId));
    const [c] = await tx
      .select({ code: contracts.bizCode })
      .from(contracts)
      .where(eq(contracts.id, paid!.contractId));
    const contract = await lockContract(tx, c!.code);
    await planItems(tx, contract.id, true);
    // Locked now: a concurrent approval of the same write-off's reversal waits here, then sees red.
    const [locked] = await tx.select().from(paids).where(eq(paids.id, paid!.id)).for('update');
    const refusal = await redRefusal(tx, locked!);
    if (refusal) throw conflict(refusal);
    if (red.redDate < locked!.paidDate) throw conflict('冲红日期不能早于核销日期');
    const income = await lockIncome(tx, incomeOf(locked!));

    const lines = await storedLines(tx, locked!.id);
    await reversePlanSettlement(tx, lines, await storedWaivers(tx, locked!.id));
    const total = lines.reduce((s, l) => s.plus(l.amount), new Decimal(0));
    await moveAllocated(tx, income.id, total.neg());

    let moved = new Decimal(0);
    if (new Decimal(locked!.released).gt(0)) {
      const r = await reoccupy(tx, {
        lineCode: contract.lineCode,
        amount: locked!.released,
        docType: 'paidRed',
        docCode: redCode,
        date: today,
        actor,
        reason: `核销冲红 ${redCode} 恢复占用`,
      });
      moved = new Decimal(r.moved);
    }
    await reverseWriteOff(tx, contract.id, {
      reoccupied: moved.toFixed(2),
      reopen: contract.status === 'settled',
    });
    // Reopened: its receivables hold the debtors' lines again (409 when another contract took the room).
    if (contract.status === 'settled')
      await syncContractDebtors(tx, contract.id, 'receivables', {
        docType: 'paidRed',
        docCode: redCode,
        date: today,
        actor,
        reason: `核销冲红 ${redCode} 合同恢复履约`,
      });
    await tx.update(paids).set({ red: true }).where(eq(paids.id, locked!.id));
    await w.audit({
      detail: { paid: locked!.bizCode, amount: total.toFixed(2), reoccupied: moved.toFixed(2) },
    });
    // The write-off's voucher mirrored, dated the red entry's date (docs/accounting.md "Red reversal").
    await reverseDocument(
      tx,
      { docType: 'paid', docCode: locked!.bizCode },
      {
        docType: 'paidRed',
        docCode: redCode,
        date: red.redDate,
        summary: `核销冲红 ${contract.contractNo} ${red.reason ?? ''}`.trim(),
      },
      actor,
    );
  });
}
