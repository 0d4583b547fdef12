import Decimal from 'decimal.js';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ContractReceivable, infoSaveSchema, PayerItem } from '@portal/contract/contract';
import type { Executor, Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import type { Actor } from '../../platform/db/audit';
import { updateVersioned } from '../../platform/db/versioned';
import { badInput, notFound } from '../../platform/errors';
import { users } from '../../platform/auth/schema';
import { getCustomer, requireActiveCustomer } from '../company';
import { linkDebtors } from '../debtor';
import { requireBankAccount } from '../bank';
import { viewRule } from '../ruler';
import { canOccupy } from '../credit';
import { creditLines, credits } from '../credit/schema';
import { refreshImpliedDues } from './plan';
import { contractDues, contractPayers, contractPlanItems, contractReceivables, contracts } from './schema';
import { planTermsChanged } from '@portal/contract/plan/complete';
import { formatYuan } from '@portal/contract/format';
import { REPAY_PURPOSES } from '@portal/contract/bank';
import { CONTRACT, type ContractRow, findContract, fmt, live } from './queries';
const sameRatio = (a: string | null, b: string | undefined) => new Decimal(a ?? 0).eq(b ?? 0);

/**
 * Receives `amount` on one of the contract's dues (a prepayment's posting), in the caller's
 * transaction: false, and nothing written, when it would exceed what is due.
 */
export async function receiveOnDue(tx: Tx, dueId: number, amount: string): Promise<boolean> {
  const res = await tx
    .update(contractDues)
    .set({ receivedAmount: sql`${contractDues.receivedAmount} + ${amount}::numeric` })
    .where(
      and(
        eq(contractDues.id, dueId),
        sql`${contractDues.receivedAmount} + ${amount}::numeric <= ${contractDues.amount}`,
      ),
    )
    .returning({ id: contractDues.id });
  return res.length > 0;
}

/** The contract row locked for the rest of the transaction. */
export async function lockContract(tx: Tx, bizCode: string): Promise<ContractRow> {
  const [row] = await tx
    .select()
    .from(contracts)
    .where(and(eq(contracts.bizCode, bizCode), live))
    .for('update');
  if (!row) throw notFound(CONTRACT);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Save (基本信息 with receivables and payers)

type InfoInput = z.output<typeof infoSaveSchema>;

/** Checks every reference of the form against the database; answers the names to store. */
export async function resolveRefs(ex: Executor, body: InfoInput, today: string) {
  const cust = await requireActiveCustomer(ex, body.custCode, { label: '客户', admitted: true });
  let coreName: string | null = null;
  if (body.coreCompCode) {
    const core = await getCustomer(ex, body.coreCompCode);
    if (!core) throw badInput('核心企业不存在');
    coreName = core.compName;
  }
  const [credit] = await ex
    .select()
    .from(credits)
    .where(and(eq(credits.bizCode, body.platCredBizCode), isNull(credits.deletedAt)));
  if (!credit) throw badInput('平台授信不存在');
  if (credit.state !== 'approved') throw badInput('平台授信未审核通过');
  if (credit.custCode !== body.custCode) throw badInput('平台授信不属于所选客户');
  const [line] = await ex.select().from(creditLines).where(eq(creditLines.bizCode, body.lineCode));
  if (!line || line.creditId !== credit.id || line.custCode !== body.custCode)
    throw badInput('占用额度不属于所选平台授信');
  if (line.state !== 'active') throw badInput('占用额度已关闭');
  const rule = await viewRule(ex, { bizCode: body.ruleBizCode }).catch(() => null);
  if (!rule || rule.contBizCode) throw badInput('计息规则不存在');
  if (rule.state !== 'enabled') throw badInput(`计息规则「${rule.name}」已停用`);
  await requireBankAccount(ex, body.bankBizCode, {
    label: '还款账户',
    ownerType: 'self',
    purposes: REPAY_PURPOSES,
  });
  if (body.deptCode) {
    const d = await queryRows<{ id: number }>(
      ex,
      sql`select id from depts where biz_code = ${body.deptCode} and deleted_at is null`,
    );
    if (!d[0]) throw badInput('业务部门不存在');
  }
  if (body.managerId !== undefined) {
    const [m] = await ex
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, body.managerId), isNull(users.deletedAt)));
    if (!m) throw badInput('业务经理不存在');
  }
  // Amount bounds (docs/credit.md "Contract amount bounds"): financing ≤ Σ receivables × ratio, ≤ available credit.
  const receivablesAmount = body.receivables.reduce((s, r) => s.plus(r.amount), new Decimal(0));
  const cap = receivablesAmount.times(body.financingRatio).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  if (new Decimal(body.financingAmount).gt(cap))
    throw badInput(`融资金额不能超过应收账款金额×融资比例（${formatYuan(cap)}）`);
  for (const r of body.receivables) {
    if (r.dueDate < r.invoiceDate) throw badInput(`发票 ${r.invoiceNo} 的应收账款到期日不能早于开票日期`);
    if (r.invoiceDate > today) throw badInput(`发票 ${r.invoiceNo} 的开票日期不能晚于营业日 ${today}`);
  }
  return { custName: cust.compName, coreName, receivablesAmount: fmt(receivablesAmount) };
}

/** An invoice may back one live contract at a time. */
export async function checkInvoicesFree(
  ex: Executor,
  items: readonly ContractReceivable[],
  contractId: number | null,
) {
  const keys = new Set<string>();
  for (const r of items) {
    const k = `${r.invoiceCode}/${r.invoiceNo}`;
    if (keys.has(k)) throw badInput(`发票 ${r.invoiceCode}/${r.invoiceNo} 重复`);
    keys.add(k);
  }
  const taken = await ex
    .select({
      code: contracts.bizCode,
      invoiceCode: contractReceivables.invoiceCode,
      invoiceNo: contractReceivables.invoiceNo,
    })
    .from(contractReceivables)
    .innerJoin(contracts, eq(contracts.id, contractReceivables.contractId))
    .where(
      and(
        eq(contractReceivables.live, true),
        inArray(
          contractReceivables.invoiceNo,
          items.map((r) => r.invoiceNo),
        ),
        contractId === null ? undefined : ne(contractReceivables.contractId, contractId),
      ),
    );
  for (const t of taken) {
    if (keys.has(`${t.invoiceCode}/${t.invoiceNo}`))
      throw badInput(`发票 ${t.invoiceCode}/${t.invoiceNo} 已转让给合同 ${t.code}`);
  }
}

/** The customer codes of the receivables' debtors (docs/credit.md "Debtors"): checked or linked by name. */
export const receivableDebtors = (ex: Executor, items: readonly ContractReceivable[]) =>
  linkDebtors(
    ex,
    items.map((r) => ({ name: r.debtorName, code: r.debtorCode })),
    (i) => `应收账款第${i + 1}行债务人`,
  );

/** The customer codes of the payers, like the receivables' debtors. */
export const payerDebtors = (ex: Executor, items: readonly PayerItem[]) =>
  linkDebtors(
    ex,
    items.map((p) => ({ name: p.payerName, code: p.payerCode })),
    (i) => `付款方第${i + 1}行`,
  );

export async function replaceReceivables(tx: Tx, contractId: number, items: readonly ContractReceivable[]) {
  await tx
    .update(contractReceivables)
    .set({ live: false })
    .where(eq(contractReceivables.contractId, contractId));
  await tx.delete(contractReceivables).where(and(eq(contractReceivables.contractId, contractId)));
  if (items.length === 0) return;
  const debtors = await receivableDebtors(tx, items);
  await tx.insert(contractReceivables).values(
    items.map((r, i) => ({
      contractId,
      invoiceCode: r.invoiceCode,
      invoiceNo: r.invoiceNo,
      invoiceDate: r.invoiceDate,
      amount: r.amount,
      debtorName: r.debtorName,
      debtorCode: debtors[i] ?? null,
      dueDate: r.dueDate,
      remark: r.remark ?? null,
      sort: i,
    })),
  );
}

export async function replacePayers(tx: Tx, contractId: number, items: readonly PayerItem[]) {
  await tx.delete(contractPayers).where(eq(contractPayers.contractId, contractId));
  if (items.length === 0) return;
  const codes = await payerDebtors(tx, items);
  await tx.insert(contractPayers).values(
    items.map((p, i) => ({
      contractId,
      payerName: p.payerName,
      payerCode: codes[i] ?? null,
      accountName: p.accountName ?? null,
      accountNo: p.accountNo ?? null,
      bankName: p.bankName ?? null,
      remark: p.remark ?? null,
      sort: i,
    })),
  );
}

/**
 * Inserts or updates a draft/rejected contract (the caller checked it is editable). A change of
 * amount, dates or rule discards the saved plan: it no longer matches and must be generated again.
 */
/** Writes the contract's draft (the pipeline audits it: docs/architecture.md "The document pipeline"). */
export async function writeInfo(
  tx: Tx,
  body: InfoInput,
  actor: Actor,
  today: string,
): Promise<{ code: string; detail: unknown }> {
  const refs = await resolveRefs(tx, body, today);
  const existing = body.bizCode ? await findContract(tx, body.bizCode) : null;
  await checkInvoicesFree(tx, body.receivables, existing?.id ?? null);
  const shortfall = await canOccupy(tx, body.lineCode, body.financingAmount, today);
  if (shortfall) throw badInput(shortfall);
  const [dup] = await tx
    .select({ code: contracts.bizCode })
    .from(contracts)
    .where(
      and(
        eq(contracts.contractNo, body.contractNo),
        live,
        existing ? ne(contracts.id, existing.id) : undefined,
      ),
    );
  if (dup) throw badInput(`合同号「${body.contractNo}」已被合同 ${dup.code} 使用`);

  const values = {
    contractNo: body.contractNo,
    recourse: body.recourse,
    disclosure: body.disclosure,
    product: body.product,
    custCode: body.custCode,
    custName: refs.custName,
    coreCompCode: body.coreCompCode ?? null,
    coreCompName: refs.coreName,
    platCredBizCode: body.platCredBizCode,
    lineCode: body.lineCode,
    financingRatio: body.financingRatio,
    financingAmount: body.financingAmount,
    marginRatio: body.marginRatio ?? null,
    receivablesAmount: refs.receivablesAmount,
    currency: body.currency,
    startDate: body.startDate,
    maturityDate: body.maturityDate,
    ruleBizCode: body.ruleBizCode,
    bankBizCode: body.bankBizCode,
    deptCode: body.deptCode ?? null,
    managerId: body.managerId ?? null,
    remark: body.remark ?? null,
  };
  let id: number;
  let code: string;
  if (existing) {
    if (body.version === undefined) throw badInput('版本号不能为空');
    const planStale = planTermsChanged(existing, body);
    await updateVersioned(
      tx,
      contracts,
      eq(contracts.id, existing.id),
      body.version,
      planStale ? { ...values, ruleSnapshot: null, upfrontInterest: '0', upfrontFee: '0' } : values,
      actor.userId,
      CONTRACT,
    );
    if (planStale) await tx.delete(contractPlanItems).where(eq(contractPlanItems.contractId, existing.id));
    // The implied up-front items follow the terms: gone with a discarded plan, a new margin figure
    // with a new margin ratio (docs/money-lifecycle.md "Implied up-front items").
    if (planStale || !sameRatio(existing.marginRatio, body.marginRatio))
      await refreshImpliedDues(tx, await findContract(tx, existing.bizCode));
    id = existing.id;
    code = existing.bizCode;
  } else {
    code = await nextCode(tx, 'contract');
    const [row] = await tx
      .insert(contracts)
      .values({ ...values, bizCode: code, createdBy: actor.userId, updatedBy: actor.userId })
      .returning({ id: contracts.id });
    id = row!.id;
  }
  await replaceReceivables(tx, id, body.receivables);
  await replacePayers(tx, id, body.payers);
  return { code, detail: { financingAmount: body.financingAmount, lineCode: body.lineCode } };
}

/** Soft delete of a draft/rejected contract: its invoices become free again. */
export async function deleteInfo(tx: Tx, row: ContractRow, actor: Actor): Promise<void> {
  await tx
    .update(contracts)
    .set({ deletedAt: sql`now()`, updatedBy: actor.userId, version: sql`${contracts.version} + 1` })
    .where(eq(contracts.id, row.id));
  await tx.update(contractReceivables).set({ live: false }).where(eq(contractReceivables.contractId, row.id));
}
