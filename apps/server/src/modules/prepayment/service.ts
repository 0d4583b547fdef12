import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DueKind } from '@portal/contract/contract';
import {
  isCashMethod,
  NOT_CASH_MESSAGE,
  type PaDue,
  type PaInit,
  type PaRow,
  type PaView,
  type paListSchema,
  type paSaveSchema,
} from '@portal/contract/prepayment';
import { UPFRONT_KINDS } from '@portal/contract/loan';
import type { Page } from '@portal/contract/api';
import type { Db, Executor, Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import type { Written } from '../workflow';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, conflict, notFound } from '../../platform/errors';
import { countOf, likePattern, offsetOf, orderClause, page } from '../../platform/http/list';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { requireBankAccount } from '../bank';
import { contractDues, contracts } from '../contract/schema';
import {
  findContract,
  lockContract,
  openUpfrontDues,
  receiveOnDue,
  requireEffective,
  scopeOf,
} from '../contract';
import { postEvent } from '../voucher';
import { prepaymentLines, prepayments } from './schema';
import { formatYuan } from '@portal/contract/format';

export type PaRecord = typeof prepayments.$inferSelect;
const WHAT = '前期款';
const COLLECT = '收取前期款';
const live = isNull(prepayments.deletedAt);
const UPFRONT: readonly string[] = UPFRONT_KINDS;

const toDue = (d: typeof contractDues.$inferSelect): PaDue => ({
  dueId: d.id,
  kind: d.kind as DueKind,
  amount: d.amount,
  receivedAmount: d.receivedAmount,
  openAmount: new Decimal(d.amount).minus(d.receivedAmount).toFixed(2),
  dueDate: d.dueDate,
});

/** initBase: the contract's open up-front dues, our repayment account and the first payer. */
export async function paInit(ex: Executor, code: string, user: ScopeUser, today: string): Promise<PaInit> {
  const c = await findContract(ex, code, user);
  requireEffective(c, COLLECT);
  const dues = await openUpfrontDues(ex, c.id);
  if (dues.length === 0) throw conflict('该合同没有待收的前期款项');
  return {
    contBizCode: c.bizCode,
    contractNo: c.contractNo,
    custName: c.custName,
    bankBizCode: c.bankBizCode,
    receiveDate: today,
    payerName: c.custName,
    dues: dues.map(toDue),
  };
}

/**
 * Checks lines against the contract's up-front dues as they are now (save, and again under lock
 * at approval): each an up-front due of this contract, once, and no more than is still open.
 */
async function checkLines(
  ex: Executor | Tx,
  contractId: number,
  lines: readonly { dueId: number; amount: string }[],
  lock = false,
): Promise<Decimal> {
  const ids = lines.map((l) => l.dueId);
  if (new Set(ids).size !== ids.length) throw badInput('收取明细中的应收费用重复');
  const q = ex
    .select()
    .from(contractDues)
    .where(and(eq(contractDues.contractId, contractId), inArray(contractDues.id, ids)));
  const dues = await (lock ? q.for('update') : q);
  let total = new Decimal(0);
  for (const l of lines) {
    const d = dues.find((x) => x.id === l.dueId);
    if (!d || !UPFRONT.includes(d.kind)) throw badInput('收取明细中的应收费用不属于该合同的前期款项');
    const open = new Decimal(d.amount).minus(d.receivedAmount);
    if (new Decimal(l.amount).gt(open))
      throw conflict(`收取金额 ${formatYuan(l.amount)} 超过该项待收金额 ${formatYuan(open)}`);
    total = total.plus(l.amount);
  }
  return total;
}

export async function savePa(
  tx: Tx,
  body: z.output<typeof paSaveSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<Written> {
  const c = await findContract(tx, body.contBizCode, user);
  requireEffective(c, COLLECT);
  await requireBankAccount(tx, body.bankBizCode, { label: '收款账户', ownerType: 'self' });
  if (body.receiveDate > today) throw badInput(`收取日期不能晚于营业日 ${today}`);
  if (body.receiveDate < c.startDate) throw badInput(`收取日期不能早于合同起始日 ${c.startDate}`);
  const total = await checkLines(tx, c.id, body.lines);
  const values = {
    contractId: c.id,
    method: body.method,
    bankBizCode: body.bankBizCode,
    receiveDate: body.receiveDate,
    payerName: body.payerName ?? null,
    amount: total.toFixed(2),
    remark: body.remark ?? null,
  };
  let id: number;
  let code: string;
  if (body.preamtBizCode) {
    const row = await findPa(tx, body.preamtBizCode, user);
    if (row.contractId !== c.id) throw badInput('前期款不能改换合同');
    if (body.version === undefined) throw badInput('版本号不能为空');
    await updateVersioned(
      tx,
      prepayments,
      eq(prepayments.id, row.id),
      body.version,
      values,
      actor.userId,
      WHAT,
    );
    await tx.delete(prepaymentLines).where(eq(prepaymentLines.prepaymentId, row.id));
    id = row.id;
    code = row.bizCode;
  } else {
    code = await nextCode(tx, 'prepayment');
    const [row] = await tx
      .insert(prepayments)
      .values({ ...values, bizCode: code, createdBy: actor.userId, updatedBy: actor.userId })
      .returning({ id: prepayments.id });
    id = row!.id;
  }
  await tx
    .insert(prepaymentLines)
    .values(body.lines.map((l) => ({ prepaymentId: id, dueId: l.dueId, amount: l.amount })));
  return { code, detail: { amount: values.amount } };
}

/**
 * Approval: each line is added to its due's received amount, bounded in SQL and by the CHECK. Only
 * cash received marks an item received: a draft left with the old 放款时扣收 is refused
 * (docs/money-lifecycle.md "A prepayment is cash").
 */
export async function postPa(tx: Tx, code: string, actor: Actor): Promise<void> {
  await runCommand(tx, actor, { entity: 'prepayment', action: 'post', code }, async (_tx, w) => {
    const row = await findPa(tx, code);
    if (!isCashMethod(row.method)) throw conflict(NOT_CASH_MESSAGE);
    const [c] = await tx
      .select({ code: contracts.bizCode })
      .from(contracts)
      .where(eq(contracts.id, row.contractId));
    const contract = await lockContract(tx, c!.code);
    requireEffective(contract, COLLECT);
    const lines = await tx.select().from(prepaymentLines).where(eq(prepaymentLines.prepaymentId, row.id));
    await checkLines(tx, contract.id, lines, true);
    for (const l of lines) {
      if (!(await receiveOnDue(tx, l.dueId, l.amount))) throw conflict('收取金额超过待收金额');
    }
    await w.audit({ detail: { amount: row.amount } });
    // Its voucher, in this transaction (docs/accounting.md "Journals").
    const kinds = lines.length
      ? await tx
          .select({ id: contractDues.id, kind: contractDues.kind })
          .from(contractDues)
          .where(
            inArray(
              contractDues.id,
              lines.map((l) => l.dueId),
            ),
          )
      : [];
    const kindOf = new Map(kinds.map((k) => [k.id, k.kind]));
    const received = (kind: string) =>
      lines
        .filter((l) => kindOf.get(l.dueId) === kind)
        .reduce((t, l) => t.plus(l.amount), new Decimal(0))
        .toFixed(2);
    await postEvent(
      tx,
      {
        kind: 'prepayment',
        docCode: code,
        date: row.receiveDate,
        received: {
          margin: received('margin'),
          upfrontInterest: received('upfrontInterest'),
          // 手续费, 服务费 and any other up-front item are fee income (docs/accounting.md).
          upfrontFee: lines
            .reduce((t, l) => t.plus(l.amount), new Decimal(0))
            .minus(received('margin'))
            .minus(received('upfrontInterest'))
            .toFixed(2),
        },
        aux: { custCode: contract.custCode, custName: contract.custName, contractNo: contract.contractNo },
      },
      actor,
    );
  });
}

export async function findPa(ex: Executor, code: string, user?: ScopeUser): Promise<PaRecord> {
  const [row] = await ex
    .select({ p: prepayments })
    .from(prepayments)
    .innerJoin(contracts, eq(contracts.id, prepayments.contractId))
    .where(and(eq(prepayments.bizCode, code), live, user ? scopeOf(user) : undefined));
  if (!row) throw notFound(WHAT);
  return row.p;
}

const rowColumns = {
  preamtBizCode: prepayments.bizCode,
  contBizCode: contracts.bizCode,
  contractNo: contracts.contractNo,
  custName: contracts.custName,
  method: prepayments.method,
  receiveDate: prepayments.receiveDate,
  amount: prepayments.amount,
  state: prepayments.state,
  updatedAt: prepayments.updatedAt,
};
const toRow = (r: { method: string; state: string } & Omit<PaRow, 'method' | 'state'>): PaRow => ({
  ...r,
  method: r.method as PaRow['method'],
  state: r.state as PaRow['state'],
});

export async function listPas(
  db: Db,
  q: z.output<typeof paListSchema>,
  user: ScopeUser,
): Promise<Page<PaRow>> {
  const cond = and(
    live,
    scopeOf(user),
    q.preamtBizCode ? eq(prepayments.bizCode, q.preamtBizCode) : undefined,
    q.contBizCode ? eq(contracts.bizCode, q.contBizCode) : undefined,
    q.contractNo ? sql`${contracts.contractNo} ilike ${likePattern(q.contractNo)}` : undefined,
    q.custName ? sql`${contracts.custName} ilike ${likePattern(q.custName)}` : undefined,
    q.state ? eq(prepayments.state, q.state) : undefined,
    q.receiveDateFrom ? sql`${prepayments.receiveDate} >= ${q.receiveDateFrom}` : undefined,
    q.receiveDateTo ? sql`${prepayments.receiveDate} <= ${q.receiveDateTo}` : undefined,
    q.amountStart ? sql`${prepayments.amount} >= ${q.amountStart}` : undefined,
    q.amountEnd ? sql`${prepayments.amount} <= ${q.amountEnd}` : undefined,
  )!;
  const rows = await db
    .select(rowColumns)
    .from(prepayments)
    .innerJoin(contracts, eq(contracts.id, prepayments.contractId))
    .where(cond)
    .orderBy(
      ...orderClause(
        q,
        {
          receiveDate: prepayments.receiveDate,
          amount: prepayments.amount,
          updatedAt: prepayments.updatedAt,
        },
        [sql`${prepayments.updatedAt} desc`, sql`${prepayments.id} desc`],
      ),
    )
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const total = await countOf(
    db,
    sql`from ${prepayments} inner join ${contracts} on ${contracts.id} = ${prepayments.contractId} where ${cond}`,
  );
  return page(rows.map(toRow), total, q);
}

export async function viewPa(ex: Executor, code: string, user: ScopeUser): Promise<PaView> {
  const [r] = await ex
    .select({
      ...rowColumns,
      id: prepayments.id,
      version: prepayments.version,
      bankBizCode: prepayments.bankBizCode,
      payerName: prepayments.payerName,
      remark: prepayments.remark,
    })
    .from(prepayments)
    .innerJoin(contracts, eq(contracts.id, prepayments.contractId))
    .where(and(eq(prepayments.bizCode, code), live, scopeOf(user)));
  if (!r) throw notFound(WHAT);
  const { id, version, bankBizCode, payerName, remark, ...row } = r;
  const lines = await ex
    .select({ line: prepaymentLines, due: contractDues })
    .from(prepaymentLines)
    .innerJoin(contractDues, eq(contractDues.id, prepaymentLines.dueId))
    .where(eq(prepaymentLines.prepaymentId, id))
    .orderBy(asc(contractDues.sort), asc(contractDues.id));
  return {
    ...toRow(row),
    version,
    bankBizCode,
    payerName,
    remark,
    lines: lines.map((l) => ({ ...toDue(l.due), lineAmount: l.line.amount })),
  };
}

export async function deletePa(tx: Tx, row: PaRecord, actor: Actor): Promise<void> {
  await tx
    .update(prepayments)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${prepayments.version} + 1` })
    .where(eq(prepayments.id, row.id));
}
