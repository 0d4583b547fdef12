import Decimal from 'decimal.js';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  daysFromTo,
  GUARANTEE_FILE_DOC_TYPE,
  GUARANTOR_KIND_LABELS,
  guaranteeStatus,
  type CollateralRow,
  type GuaranteeRow,
  type GuarantorKind,
  guaSaveSchema,
  releaseGuaranteeSchema,
} from '@portal/contract/credit';
import type { Executor, Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound } from '../../platform/errors';
import { requireActiveCustomer } from '../company';
import { listFiles, setDocumentFiles } from '../files';
import { addGuaranteeMessages } from '../messages';
import { editableDoc } from './flow';
import { creditCollaterals, creditGuarantees, credits } from './schema';
import type { WorkflowRegistry } from '../workflow';

/**
 * 担保授信 (docs/credit.md "Guarantees and collateral"): a credit's guarantees (guarantor, amount,
 * period, contract of guarantee) and collateral, the rule that a credit requiring a guarantee is
 * approved only with one in force, the release of a guarantee, and the day-end's reminders.
 */

/** The reminder settings of 参数设置 (platform/params.ts guaranteeWatch). */
export interface GuaranteeWatch {
  /** A guarantee is reminded of (and shown 即将到期) this many days before its end. */
  remindDays: number;
  /** A valuation older than this many days is reminded of (and shown 估值过期). */
  valuationMaxDays: number;
}

const fmt = (v: string | Decimal) => new Decimal(v).toFixed(2);
type GuaranteeDbRow = typeof creditGuarantees.$inferSelect;

async function creditOf(ex: Executor, bizCode: string) {
  const [c] = await ex
    .select()
    .from(credits)
    .where(and(eq(credits.bizCode, bizCode), sql`${credits.deletedAt} is null`));
  if (!c) throw notFound('授信');
  return c;
}

const guarantor = (g: Pick<GuaranteeDbRow, 'guarantorName' | 'guarantorKind'>) =>
  `${GUARANTOR_KIND_LABELS[g.guarantorKind as GuarantorKind] ?? ''}担保人「${g.guarantorName}」`;

export async function viewGuarantees(
  ex: Executor,
  bizCode: string,
  today: string,
  watch: GuaranteeWatch,
): Promise<GuaranteeRow[]> {
  const c = await creditOf(ex, bizCode);
  const rows = await ex
    .select()
    .from(creditGuarantees)
    .where(eq(creditGuarantees.creditId, c.id))
    .orderBy(asc(creditGuarantees.sort), asc(creditGuarantees.id));
  const files = new Map(
    (await listFiles(ex, GUARANTEE_FILE_DOC_TYPE, c.bizCode)).map((f) => [f.fileToken, f]),
  );
  return rows.map((r) => ({
    id: r.id,
    guarantorKind: r.guarantorKind as GuarantorKind,
    guarantorName: r.guarantorName,
    guarantorCode: r.guarantorCode ?? undefined,
    idNo: r.idNo ?? undefined,
    guaranteeType: r.guaranteeType as GuaranteeRow['guaranteeType'],
    amount: fmt(r.amount),
    startDate: r.startDate,
    endDate: r.endDate,
    contractFileToken: r.contractFileToken ?? undefined,
    remark: r.remark ?? undefined,
    status: guaranteeStatus(r, today, watch.remindDays),
    daysLeft: daysFromTo(today, r.endDate),
    releasedOn: r.releasedOn,
    releaseReason: r.releaseReason,
    contractFile: (r.contractFileToken && files.get(r.contractFileToken)) || null,
  }));
}

export async function viewCollaterals(
  ex: Executor,
  bizCode: string,
  today: string,
  watch: GuaranteeWatch,
): Promise<CollateralRow[]> {
  const c = await creditOf(ex, bizCode);
  const rows = await ex
    .select()
    .from(creditCollaterals)
    .where(eq(creditCollaterals.creditId, c.id))
    .orderBy(asc(creditCollaterals.sort), asc(creditCollaterals.id));
  return rows.map((r) => {
    const age = daysFromTo(r.valuationDate, today);
    return {
      id: r.id,
      kind: r.kind as CollateralRow['kind'],
      name: r.name ?? undefined,
      value: fmt(r.value),
      valuationDate: r.valuationDate,
      regNo: r.regNo,
      remark: r.remark ?? undefined,
      valuationAgeDays: age,
      stale: age > watch.valuationMaxDays,
    };
  });
}

/**
 * Saves a draft (or rejected) credit's guarantees and collateral whole: the lists replace the
 * stored ones, and the contracts of guarantee named become the credit's `creditGua` files (one no
 * longer named is removed). An enterprise guarantor picked by code must be an active customer and
 * takes its registered name; the same person or enterprise may not guarantee twice.
 */
export async function saveGuarantees(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: z.output<typeof guaSaveSchema>,
  actor: Actor,
): Promise<{ bizCode: string; version: number }> {
  const cmd = { entity: 'credit', action: 'saveGuarantees', version: input.version, what: '授信' };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const head = await editableDoc(tx, workflow, 'credit', input.credBizCode);
    await w.update(credits, eq(credits.id, head.id), {});
    const c = await creditOf(tx, input.credBizCode);
    const seen = new Set<string>();
    const items = [];
    for (const [n, i] of input.items.entries()) {
      let name = i.guarantorName;
      if (i.guarantorCode) {
        const cust = await requireActiveCustomer(tx, i.guarantorCode, {
          label: `担保信息第${n + 1}行：担保人`,
        });
        name = cust.compName;
      }
      const key =
        i.guarantorKind === 'person' ? `p:${i.idNo}` : i.guarantorCode ? `c:${i.guarantorCode}` : `n:${name}`;
      if (seen.has(key)) throw badInput(`担保信息第${n + 1}行：担保人「${name}」重复`);
      seen.add(key);
      items.push({ ...i, guarantorName: name });
    }
    const tokens = items.flatMap((i) => (i.contractFileToken ? [i.contractFileToken] : []));
    if (new Set(tokens).size !== tokens.length) throw badInput('同一份担保合同不能用于两个担保人');
    await setDocumentFiles(tx, {
      docType: GUARANTEE_FILE_DOC_TYPE,
      docCode: c.bizCode,
      fileTokens: tokens,
      actor,
    });
    await tx.delete(creditGuarantees).where(eq(creditGuarantees.creditId, c.id));
    if (items.length > 0) {
      await tx.insert(creditGuarantees).values(
        items.map((i, sort) => ({
          creditId: c.id,
          guarantorKind: i.guarantorKind,
          guarantorName: i.guarantorName,
          guarantorCode: i.guarantorCode ?? null,
          idNo: i.idNo ?? null,
          guaranteeType: i.guaranteeType,
          amount: fmt(i.amount),
          startDate: i.startDate,
          endDate: i.endDate,
          contractFileToken: i.contractFileToken ?? null,
          remark: i.remark ?? null,
          sort,
        })),
      );
    }
    await tx.delete(creditCollaterals).where(eq(creditCollaterals.creditId, c.id));
    if (input.collaterals.length > 0) {
      await tx.insert(creditCollaterals).values(
        input.collaterals.map((k, sort) => ({
          creditId: c.id,
          kind: k.kind,
          name: k.name ?? null,
          value: fmt(k.value),
          valuationDate: k.valuationDate,
          regNo: k.regNo,
          remark: k.remark ?? null,
          sort,
        })),
      );
    }
    await w.audit({
      code: c.bizCode,
      detail: {
        items: items.map(({ contractFileToken: _file, ...i }) => i),
        collaterals: input.collaterals.map(({ kind, ...k }) => ({ collateralKind: kind, ...k })),
      },
    });
    return { bizCode: c.bizCode, version: c.version };
  });
}

/** The guarantees of a credit in force on `date`: not released, `date` inside their period. */
async function inForce(ex: Executor, creditId: number, date: string): Promise<GuaranteeDbRow[]> {
  return ex
    .select()
    .from(creditGuarantees)
    .where(
      and(
        eq(creditGuarantees.creditId, creditId),
        sql`${creditGuarantees.releasedOn} is null`,
        sql`${creditGuarantees.startDate} <= ${date}::date and ${creditGuarantees.endDate} >= ${date}::date`,
      ),
    );
}

/**
 * The approval's rule (applyCredit, inside the approving transaction): a credit whose 担保要求 is
 * 须有担保 needs a guarantee in force on the business date. The credit's row is locked first, so
 * a release of its guarantee (which locks the same row) either committed before (and is seen
 * here) or waits for this approval to end. 409 naming what is missing.
 */
export async function requireGuaranteeInForce(tx: Tx, creditId: number, today: string): Promise<void> {
  const [c] = await queryRows<{ guarantee_mode: string }>(
    tx,
    sql`select guarantee_mode from credits where id = ${creditId} for update`,
  );
  if (c?.guarantee_mode !== 'guaranteed') return;
  if ((await inForce(tx, creditId, today)).length > 0) return;
  const all = await tx.select().from(creditGuarantees).where(eq(creditGuarantees.creditId, creditId));
  const why =
    all.length === 0
      ? '未登记任何担保'
      : all
          .map((g) => {
            const s = guaranteeStatus(g, today, 0);
            const state =
              s === 'released'
                ? `已于 ${g.releasedOn} 解除`
                : s === 'notStarted'
                  ? `${g.startDate} 起才生效`
                  : `已于 ${g.endDate} 到期`;
            return `${guarantor(g)}${state}`;
          })
          .join('；');
  throw conflict(`授信要求担保，营业日 ${today} 没有有效的担保：${why}`);
}

/**
 * 解除担保: ends one guarantee of a pending or approved credit on the business date, with a reason.
 * The credit's row is locked first (the order of the approval), so a release and an approval of the
 * same credit queue. An approved credit requiring a guarantee keeps at least one in force: its
 * last one cannot be released (409); a pending one may lose it, and then cannot be approved.
 */
export async function releaseGuarantee(
  tx: Tx,
  input: z.output<typeof releaseGuaranteeSchema>,
  today: string,
  actor: Actor,
): Promise<{ bizCode: string; version: number }> {
  const cmd = { entity: 'credit', action: 'releaseGuarantee', code: input.credBizCode };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const [c] = await queryRows<{ id: number; state: string; guarantee_mode: string; version: number }>(
      tx,
      sql`select id::int as id, state, guarantee_mode, version from credits
         where biz_code = ${input.credBizCode} and deleted_at is null for update`,
    );
    if (!c) throw notFound('授信');
    if (c.state !== 'pending' && c.state !== 'approved')
      throw conflict('只能解除审批中或已审核授信的担保；草稿或被驳回的授信请直接修改担保信息');
    const [g] = await tx
      .select()
      .from(creditGuarantees)
      .where(and(eq(creditGuarantees.id, input.guaranteeId), eq(creditGuarantees.creditId, c.id)))
      .for('update');
    if (!g) throw notFound('担保');
    if (g.releasedOn) throw conflict(`${guarantor(g)}的担保已于 ${g.releasedOn} 解除`);
    if (c.state === 'approved' && c.guarantee_mode === 'guaranteed') {
      const others = (await inForce(tx, c.id, today)).filter((o) => o.id !== g.id);
      if (others.length === 0)
        throw conflict(
          `授信要求担保，${guarantor(g)}是营业日 ${today} 唯一有效的担保，不能解除；请先登记新的担保`,
        );
    }
    await tx
      .update(creditGuarantees)
      .set({ releasedOn: today, releasedBy: actor.userId || null, releaseReason: input.reason })
      .where(eq(creditGuarantees.id, g.id));
    const [v] = await queryRows<{ version: number }>(
      tx,
      sql`update credits set version = version + 1, updated_at = now(), updated_by = ${actor.userId || null}
         where id = ${c.id} returning version`,
    );
    await w.audit({
      detail: { guaranteeId: g.id, guarantorName: g.guarantorName, releasedOn: today, reason: input.reason },
    });
    return { bizCode: input.credBizCode, version: v!.version };
  });
}

/**
 * The day-end's guarantee reminders for the business date `date` (docs/credit.md "Reminders"),
 * inside the day-end's transaction under its lock, so a date is worked once however many servers
 * run: to the maker of each approved credit (its 客户经理), once per person and event, a message
 * when a guarantee not released ends within `remindDays` days, and when a collateral's valuation is
 * older than `valuationMaxDays`. A catch-up over several days sends each message once. Answers how
 * many messages it added.
 */
export async function guaranteeWatchAtDayEnd(tx: Tx, date: string, watch: GuaranteeWatch): Promise<number> {
  const live = sql`c.deleted_at is null and c.state = 'approved' and c.end_date >= ${date}::date`;
  const ending = await queryRows<{
    credit_id: number;
    biz_code: string;
    cust_name: string;
    user_id: number | null;
    id: number;
    guarantor_name: string;
    guarantor_kind: string;
    end_date: string;
  }>(
    tx,
    sql`select c.id::int as credit_id, c.biz_code, c.cust_name, c.created_by::int as user_id, g.id::int as id,
               g.guarantor_name, g.guarantor_kind, to_char(g.end_date, 'YYYY-MM-DD') as end_date
          from credit_guarantees g join credits c on c.id = g.credit_id
         where ${live} and g.released_on is null
           and g.end_date >= ${date}::date and g.end_date <= ${date}::date + ${watch.remindDays}::int
         order by c.id, g.sort, g.id`,
  );
  const stale = await queryRows<{
    credit_id: number;
    biz_code: string;
    cust_name: string;
    user_id: number | null;
    id: number;
    reg_no: string;
    valuation_date: string;
  }>(
    tx,
    sql`select c.id::int as credit_id, c.biz_code, c.cust_name, c.created_by::int as user_id, k.id::int as id,
               k.reg_no, to_char(k.valuation_date, 'YYYY-MM-DD') as valuation_date
          from credit_collaterals k join credits c on c.id = k.credit_id
         where ${live} and k.valuation_date < ${date}::date - ${watch.valuationMaxDays}::int
         order by c.id, k.sort, k.id`,
  );
  const events = [
    ...ending.map((g) => ({
      ...g,
      itemKind: 'guarantee' as const,
      event: g.end_date,
      detail: `${guarantor({ guarantorName: g.guarantor_name, guarantorKind: g.guarantor_kind })}的担保将于 ${g.end_date} 到期，还有${daysFromTo(date, g.end_date)}天`,
    })),
    ...stale.map((k) => ({
      ...k,
      itemKind: 'collateral' as const,
      event: k.valuation_date,
      detail: `抵质押物（登记编号 ${k.reg_no}）的评估日期 ${k.valuation_date} 已超过${watch.valuationMaxDays}天，请重新评估`,
    })),
  ];
  const messages: Parameters<typeof addGuaranteeMessages>[1][number][] = [];
  for (const e of events) {
    if (!e.user_id) continue;
    const added = await queryRows<{ id: number }>(
      tx,
      sql`insert into guarantee_reminders (user_id, credit_id, item_kind, item_id, event_date, business_date)
          select u.id, ${e.credit_id}, ${e.itemKind}, ${e.id}, ${e.event}::date, ${date}::date from users u
           where u.id = ${e.user_id} and u.deleted_at is null
          on conflict (user_id, item_kind, item_id, event_date) do nothing returning id`,
    );
    if (added.length)
      messages.push({ userId: e.user_id, credBizCode: e.biz_code, custName: e.cust_name, detail: e.detail });
  }
  await addGuaranteeMessages(tx, messages);
  return messages.length;
}
