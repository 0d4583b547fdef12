import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import {
  ASSIGN_NOTICE_DOC_TYPE,
  type NoticeList,
  type NoticeState,
  type NoticeStatus,
  type NoticeView,
  type noticeConfirmSchema,
  type noticeWaiveSchema,
  type noticeWithdrawSchema,
} from '@portal/contract/assignment';
import type { Executor, Tx } from '../../platform/db/client';
import { queryRows } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand, type CommandWriter } from '../../platform/db/command';
import { badInput, conflict, noPermission, notFound } from '../../platform/errors';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { findContract, lockContract, type ContractRow } from '../contract';
import { listFiles, setDocumentFiles } from '../files';
import { assignmentNotices } from './schema';

type NoticeRow = typeof assignmentNotices.$inferSelect;
const WHAT = '转让通知';

const statusOf = (n: Pick<NoticeRow, 'confirmDate' | 'waivedAt'>): NoticeStatus =>
  n.confirmDate ? 'confirmed' : n.waivedAt ? 'waived' : 'pending';

/**
 * The contract's debtors as its live receivables name them, each with its notice (the database
 * makes one per debtor as the receivable is written, migrations/0056), its receivables' sum and count.
 */
async function debtorNotices(
  ex: Executor,
  contractId: number,
): Promise<(NoticeRow & { amount: string; invoices: number })[]> {
  const rows = await queryRows<{ id: number; amount: string; invoices: number }>(
    ex,
    sql`select n.id::int as id, sum(r.amount)::text as amount, count(*)::int as invoices
          from contract_receivables r
          join assignment_notices n on n.contract_id = r.contract_id and n.debtor_name = r.debtor_name
         where r.contract_id = ${contractId} and r.live
         group by n.id`,
  );
  if (rows.length === 0) return [];
  const notices = await ex
    .select()
    .from(assignmentNotices)
    .where(eq(assignmentNotices.contractId, contractId));
  return rows
    .flatMap((r) => {
      const n = notices.find((x) => x.id === r.id);
      return n ? [{ ...n, amount: new Decimal(r.amount).toFixed(2), invoices: r.invoices }] : [];
    })
    .sort((a, b) => a.debtorName.localeCompare(b.debtorName, 'zh-CN'));
}

/**
 * The debtors of a disclosed contract neither confirmed nor waived (none for an undisclosed one):
 * what keeps its 放款单 from being submitted or approved.
 */
export async function unsettledDebtors(ex: Executor, c: ContractRow): Promise<string[]> {
  if (c.disclosure !== 'disclosed') return [];
  return (await debtorNotices(ex, c.id)).filter((n) => statusOf(n) === 'pending').map((n) => n.debtorName);
}

/**
 * Refuses (409, naming the debtors) a disbursement of a disclosed contract while a debtor is
 * neither confirmed nor waived (docs/assignment-notice.md). Asked when the 放款单 is submitted and
 * again when it is approved, under the contract's lock, which every confirmation, waiver and
 * withdrawal takes first.
 */
export async function requireNoticesSettled(ex: Executor, c: ContractRow): Promise<void> {
  const missing = await unsettledDebtors(ex, c);
  if (missing.length)
    throw conflict(
      `明保理合同的债务人尚未确认应收账款转让通知：${missing.join('、')}；请先登记债务人确认，或由复核人豁免`,
    );
}

export function noticeStateOf(disclosed: boolean, statuses: readonly NoticeStatus[]): NoticeState {
  if (!disclosed) return 'none';
  return statuses.every((s) => s !== 'pending') ? 'confirmed' : 'pending';
}

async function userNames(ex: Executor, ids: readonly (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await queryRows<{ id: number; name: string | null; user_name: string }>(
    ex,
    sql`select id::int as id, real_name as name, user_name from users where id in (${sql.join(
      wanted.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((r) => [r.id, r.name ?? r.user_name]));
}

/** The 转让通知 tab: each debtor of the contract with its notice, status and signed copy. */
export async function listNotices(ex: Executor, c: ContractRow, userId: number): Promise<NoticeList> {
  const notices = await debtorNotices(ex, c.id);
  const names = await userNames(
    ex,
    notices.flatMap((n) => [n.confirmRecordedBy, n.waivedBy]),
  );
  const views: NoticeView[] = [];
  for (const n of notices)
    views.push({
      noticeBizCode: n.bizCode,
      debtorName: n.debtorName,
      amount: n.amount,
      invoiceCount: n.invoices,
      status: statusOf(n),
      confirmDate: n.confirmDate,
      confirmedBy: n.confirmedBy,
      recordedByName: n.confirmRecordedBy === null ? null : (names.get(n.confirmRecordedBy) ?? null),
      waiveReason: n.waiveReason,
      waivedByName: n.waivedBy === null ? null : (names.get(n.waivedBy) ?? null),
      waivedAt: n.waivedAt,
      files: await listFiles(ex, ASSIGN_NOTICE_DOC_TYPE, n.bizCode),
      version: n.version,
    });
  const disclosed = c.disclosure === 'disclosed';
  return {
    contBizCode: c.bizCode,
    disclosed,
    state: noticeStateOf(
      disclosed,
      views.map((v) => v.status),
    ),
    loaned: c.loanState === 'loaned',
    youMadeIt: c.createdBy === userId,
    notices: views,
  };
}

/** A notice in the user's scope with its contract code (for the print and the actions). */
export async function findNotice(
  ex: Executor,
  code: string,
  user?: ScopeUser,
): Promise<{ notice: NoticeRow; contract: ContractRow }> {
  const [n] = await ex.select().from(assignmentNotices).where(eq(assignmentNotices.bizCode, code));
  if (!n) throw notFound(WHAT);
  const [c] = await queryRows<{ code: string }>(
    ex,
    sql`select biz_code as code from contracts where id = ${n.contractId} and deleted_at is null`,
  );
  if (!c) throw notFound(WHAT);
  return { notice: n, contract: await findContract(ex, c.code, user) };
}

/**
 * The notice locked for an action, after its contract (lock order: contract → notice): a live
 * debtor of a disclosed contract.
 */
async function lockNotice(
  tx: Tx,
  code: string,
  user: ScopeUser,
): Promise<{ notice: NoticeRow & { amount: string }; contract: ContractRow }> {
  const found = await findNotice(tx, code, user);
  const contract = await lockContract(tx, found.contract.bizCode);
  const [notice] = await tx
    .select()
    .from(assignmentNotices)
    .where(eq(assignmentNotices.id, found.notice.id))
    .for('update');
  if (contract.disclosure !== 'disclosed') throw conflict('暗保理合同无需应收账款转让通知');
  const current = (await debtorNotices(tx, contract.id)).find((n) => n.id === notice!.id);
  if (!current) throw conflict(`「${notice!.debtorName}」已不是合同应收账款的债务人`);
  return { notice: { ...notice!, amount: current.amount }, contract };
}

type Locked = Awaited<ReturnType<typeof lockNotice>> & {
  status: NoticeStatus;
  /** The notice's new values (locked: the command's touch moves its version on). */
  set: (values: PgUpdateSetSource<typeof assignmentNotices>) => Promise<void>;
};

/**
 * An action on a notice as one command (docs/architecture.md "The command path"): the notice
 * locked after its contract, then the action's checks, its writes and its audit row.
 */
function noticeCommand(
  tx: Tx,
  actor: Actor,
  user: ScopeUser,
  code: string,
  action: 'noticeConfirm' | 'noticeWaive' | 'noticeWithdraw',
  act: (w: CommandWriter, found: Locked) => Promise<void>,
): Promise<void> {
  const cmd = { entity: ASSIGN_NOTICE_DOC_TYPE, action, code };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const found = await lockNotice(tx, code, user);
    const set = (values: PgUpdateSetSource<typeof assignmentNotices>) =>
      w.touch(assignmentNotices, eq(assignmentNotices.id, found.notice.id), values);
    await act(w, { ...found, status: statusOf(found.notice), set });
  });
}

/** Confirm and waive act on a pending notice only: `then` says what to do instead. */
function requirePending({ notice, status }: Locked, then: string): void {
  if (status !== 'pending')
    throw conflict(
      `债务人「${notice.debtorName}」的转让通知${status === 'confirmed' ? '已确认' : '已豁免'}，${then}`,
    );
}

/** 确认: the debtor's confirmation, its date, who signed it and the signed copy. */
export async function confirmNotice(
  tx: Tx,
  body: z.output<typeof noticeConfirmSchema>,
  actor: Actor,
  user: ScopeUser,
  today: string,
): Promise<void> {
  await noticeCommand(tx, actor, user, body.noticeBizCode, 'noticeConfirm', async (w, found) => {
    const { notice, contract } = found;
    requirePending(found, '请先撤销');
    if (body.confirmDate > today) throw badInput(`确认日期不能晚于营业日 ${today}`);
    if (body.fileTokens.length === 0) throw badInput('确认文件不能为空：请上传债务人签章的转让通知书回执');
    await setDocumentFiles(tx, {
      docType: ASSIGN_NOTICE_DOC_TYPE,
      docCode: notice.bizCode,
      fileTokens: body.fileTokens,
      actor,
    });
    await found.set({
      confirmDate: body.confirmDate,
      confirmedBy: body.confirmedBy,
      confirmRecordedBy: actor.userId,
      confirmRecordedAt: sql`now()`,
    });
    await w.audit({
      detail: {
        contBizCode: contract.bizCode,
        debtorName: notice.debtorName,
        confirmDate: body.confirmDate,
        confirmedBy: body.confirmedBy,
      },
    });
  });
}

/**
 * 豁免: a checker's act (four eyes): never the contract's maker, nor the maker of a 放款单 of the
 * contract still in the making or awaiting approval.
 */
export async function waiveNotice(
  tx: Tx,
  body: z.output<typeof noticeWaiveSchema>,
  actor: Actor,
  user: ScopeUser,
): Promise<void> {
  await noticeCommand(tx, actor, user, body.noticeBizCode, 'noticeWaive', async (w, found) => {
    const { notice, contract } = found;
    requirePending(found, '无需豁免');
    if (contract.createdBy === actor.userId) throw noPermission('豁免须由复核人办理，合同经办人不能豁免');
    const [loanMaker] = await queryRows<{ code: string }>(
      tx,
      sql`select biz_code as code from loans
         where contract_id = ${contract.id} and deleted_at is null and state in ('draft', 'pending', 'rejected')
           and created_by = ${actor.userId} limit 1`,
    );
    if (loanMaker) throw noPermission(`豁免须由复核人办理，放款单 ${loanMaker.code} 的经办人不能豁免`);
    await found.set({ waiveReason: body.reason, waivedBy: actor.userId, waivedAt: sql`now()` });
    await w.audit({
      detail: { contBizCode: contract.bizCode, debtorName: notice.debtorName, reason: body.reason },
    });
  });
}

/**
 * 撤销: takes back a confirmation (button noticeConfirm) or a waiver (button noticeWaive) while the
 * contract is not disbursed; the notice is pending again and the signed copy is detached.
 */
export async function withdrawNotice(
  tx: Tx,
  body: z.output<typeof noticeWithdrawSchema>,
  actor: Actor,
  user: ScopeUser & { codes: ReadonlySet<string> },
): Promise<void> {
  await noticeCommand(tx, actor, user, body.noticeBizCode, 'noticeWithdraw', async (w, found) => {
    const { notice, contract, status } = found;
    if (status === 'pending') throw conflict(`债务人「${notice.debtorName}」的转让通知尚未确认或豁免`);
    const needed = status === 'confirmed' ? 'ft-contract-info:noticeConfirm' : 'ft-contract-info:noticeWaive';
    if (!user.codes.has('admin') && !user.codes.has(needed)) throw noPermission();
    if (contract.loanState === 'loaned') throw conflict('合同已放款，不能撤销转让通知的确认或豁免');
    if (status === 'confirmed')
      await setDocumentFiles(tx, {
        docType: ASSIGN_NOTICE_DOC_TYPE,
        docCode: notice.bizCode,
        fileTokens: [],
        actor,
      });
    await found.set({
      confirmDate: null,
      confirmedBy: null,
      confirmRecordedBy: null,
      confirmRecordedAt: null,
      waiveReason: null,
      waivedBy: null,
      waivedAt: null,
    });
    await w.audit({
      detail: {
        contBizCode: contract.bizCode,
        debtorName: notice.debtorName,
        withdrawn: status,
        reason: body.reason,
      },
    });
  });
}
