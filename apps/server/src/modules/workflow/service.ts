import { sql, type SQL } from 'drizzle-orm';
import { MONEY_PATTERN } from '@portal/contract/fields';
import {
  EDITABLE_STATES,
  WITHDRAW_NOT_MAKER_MSG,
  WITHDRAW_TOO_LATE_MSG,
  type DocState,
  type ProcState,
} from '@portal/contract/workflow';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { laterOwner, runCommand, writeLater, writeWithAudit } from '../../platform/db/command';
import { AppError, badInput, conflict, noPermission, notFound } from '../../platform/errors';
import type { ResolvedDocType, WorkflowDoc, WorkflowRegistry } from './registry';
import type { InstanceStep } from './schema';
import { decidesAnyStep, deciderFacts, factsColumn, factsOf, type DeciderFacts } from './deciders';
import { todoMessagesInsert } from '../messages';

/**
 * The workflow's service API (see README.md beside this file). Every function takes the
 * caller's transaction: a business module calls them from its own routes, inside the same
 * `db.transaction` as its own writes, so a request commits whole or changes nothing. Each also
 * takes the portal's WorkflowRegistry, where it finds the document type's table and hooks.
 *
 * Lock order: the document row (submit / assertEditable / assertDeletable) — or, when approving
 * and rejecting, the process instance row, then whatever the hooks lock, then the document row.
 */

export const SELF_APPROVAL_MSG = '经办人和复核人相同，不可复核';
export const MOVED_ON_MSG = '单据已被他人处理，请刷新后重试';

const STATE_PHRASE: Record<DocState, string> = {
  draft: '为草稿',
  pending: '审核中',
  approved: '已审核',
  rejected: '已驳回',
};

/** 409 naming the state: 单据已审核，不能删除 / 单据审核中，不能修改 / 单据为草稿，不能审核. */
export function stateConflict(state: DocState, verb: string): AppError {
  return conflict(`单据${STATE_PHRASE[state]}，不能${verb}`);
}

export interface TransitionResult {
  /** The document's state after the call. */
  state: DocState;
  /** The step now waiting (1-based) while pending, else null. */
  step: number | null;
  stepName: string | null;
  /** True when this call finished the process (approved by the last step). */
  finished: boolean;
}

// ----- document row ------------------------------------------------------------------------

function docWhere(t: ResolvedDocType, code: string): SQL {
  const base = sql`${sql.identifier(t.codeColumn)} = ${code}`;
  return t.softDelete ? sql`${base} and deleted_at is null` : base;
}

/** Reads (and with `lock`, row-locks) the document's state; 404 when it does not exist. */
async function docState(ex: Executor, t: ResolvedDocType, code: string, lock: boolean): Promise<DocState> {
  const rows = await queryRows<{ state: DocState }>(
    ex,
    sql`select ${sql.identifier(t.stateColumn)} as state from ${sql.identifier(t.table)}
         where ${docWhere(t, code)}${lock ? sql` for update` : sql``}`,
  );
  if (!rows[0]) throw notFound(t.label);
  return rows[0].state;
}

async function setDocState(
  tx: Tx,
  t: ResolvedDocType,
  code: string,
  from: DocState,
  to: DocState,
  actor: Actor,
  also: readonly SQL[] = [],
  /** The command's audit rows (audited before) written by this update (writeWithAudit): a statement less. */
  withAudit = false,
) {
  const sets: SQL[] = [...also, sql`${sql.identifier(t.stateColumn)} = ${to}`];
  const uid = actor.userId || null;
  if (t.versioned) sets.push(sql`version = version + 1`, sql`updated_at = now()`, sql`updated_by = ${uid}`);
  if (t.stamps && to === 'pending') sets.push(sql`submitted_at = now()`, sql`submitted_by = ${uid}`);
  if (t.stamps && to === 'approved') sets.push(sql`approved_at = now()`, sql`approved_by = ${uid}`);
  if (t.stamps && to === 'rejected') sets.push(sql`approved_at = null`, sql`approved_by = null`);
  const update = sql`update ${sql.identifier(t.table)} set ${sql.join(sets, sql`, `)}
         where ${docWhere(t, code)} and ${sql.identifier(t.stateColumn)} = ${from} returning 1 as ok`;
  const rows = withAudit
    ? await writeWithAudit<{ ok: number }>(tx, update, laterOwner(t.type, code))
    : await queryRows<{ ok: number }>(tx, update);
  if (rows.length !== 1) throw conflict(MOVED_ON_MSG);
}

/**
 * A document's version after setDocState moved its state: one more when the type is versioned.
 * For a caller that read the row while holding it (saveDraft's head), so nothing else moved it.
 */
export function versionAfterMove(t: ResolvedDocType, version: number): number {
  return t.versioned ? version + 1 : version;
}

/**
 * Inside a save: locks the document row and refuses unless it is a draft or rejected
 * (409 单据审核中，不能修改). Answers the current state.
 */
export async function assertEditable(
  tx: Tx,
  workflow: WorkflowRegistry,
  type: string,
  code: string,
): Promise<DocState> {
  const state = await docState(tx, workflow.typeOf(type), code, true);
  if (!EDITABLE_STATES.includes(state)) throw stateConflict(state, '修改');
  return state;
}

/** Inside a delete: as assertEditable, with 单据已审核，不能删除. */
export async function assertDeletable(
  tx: Tx,
  workflow: WorkflowRegistry,
  type: string,
  code: string,
): Promise<DocState> {
  const state = await docState(tx, workflow.typeOf(type), code, true);
  if (!EDITABLE_STATES.includes(state)) throw stateConflict(state, '删除');
  return state;
}

// ----- process instance --------------------------------------------------------------------

interface InstanceRow {
  id: number;
  doc_type: string;
  doc_code: string;
  round: number;
  proc_name: string;
  subject: string;
  amount: string | null;
  state: ProcState;
  steps: InstanceStep[];
  step_count: number;
  current_step: number;
  step_role: string;
  submitted_by: number;
  submitter_name: string;
  start_time: string;
  end_time: string | null;
}

const INSTANCE_COLS = sql`id, doc_type, doc_code, round, proc_name, subject, amount::text as amount, state, steps,
  step_count, current_step, step_role, submitted_by, submitter_name, start_time, end_time`;

function normaliseInstance(r: InstanceRow): InstanceRow {
  return { ...r, id: Number(r.id), submitted_by: Number(r.submitted_by) };
}

/** The latest instance (round) of a document; `lock` takes its row lock. */
export async function latestInstance(
  ex: Executor,
  type: string,
  code: string,
  lock = false,
): Promise<InstanceRow | undefined> {
  const rows = await queryRows<InstanceRow>(
    ex,
    sql`select ${INSTANCE_COLS} from wf_instances where doc_type = ${type} and doc_code = ${code}
         order by round desc limit 1${lock ? sql` for update` : sql``}`,
  );
  return rows[0] ? normaliseInstance(rows[0]) : undefined;
}

function asDoc(i: InstanceRow): WorkflowDoc {
  return {
    type: i.doc_type,
    code: i.doc_code,
    subject: i.subject,
    amount: i.amount,
    round: i.round,
    submittedBy: i.submitted_by,
  };
}

async function realName(ex: Executor, actor: Actor): Promise<string> {
  if (!actor.userId) return actor.userName;
  const rows = await queryRows<{ real_name: string }>(
    ex,
    sql`select real_name from users where id = ${actor.userId}`,
  );
  return rows[0]?.real_name ?? actor.userName;
}

export async function allowSelfApproval(ex: Executor): Promise<boolean> {
  const rows = await queryRows<{ v: boolean }>(
    ex,
    sql`select allow_self_approval as v from wf_settings where id = 1`,
  );
  return rows[0]?.v ?? false;
}

/**
 * Why the user may not act on the instance's current step, or null when they may: the step's
 * role inside the data scope it grants (or admin: deciders.ts), four eyes (not the submitter), and
 * not the same person on two steps. `facts`: the user's, when the caller has read them already.
 */
export async function refusalFor(
  ex: Executor,
  inst: InstanceRow,
  userId: number,
  facts?: DeciderFacts,
): Promise<AppError | null> {
  const step = inst.steps[inst.current_step - 1];
  if (!step) return conflict(MOVED_ON_MSG);
  const { decider, selfApproval: self } = facts ?? (await deciderFacts(ex, userId));
  if (!(await decidesAnyStep(ex, decider, [step.roleCode], inst.doc_type, inst.doc_code)))
    return noPermission(`当前审批步骤「${step.name}」需由${step.roleName}审批`);
  if (!self && inst.submitted_by === userId) return conflict(SELF_APPROVAL_MSG);
  if (!self && inst.current_step > 1) {
    const rows = await queryRows<{ n: number }>(
      ex,
      sql`select count(*)::int as n from wf_records
           where instance_id = ${inst.id} and action = 'approve' and actor_id = ${userId}`,
    );
    if ((rows[0]?.n ?? 0) > 0) return conflict('同一人不能审批同一单据的多个步骤');
  }
  return null;
}

/**
 * The decider's facts and name for the process record, one statement (deciderFacts) where
 * refusalFor and realName took four: approve and reject read them inside the transaction that
 * holds the document's locks.
 */
async function deciding(
  ex: Executor,
  inst: InstanceRow,
  actor: Actor,
  known?: DeciderFacts,
): Promise<string> {
  const facts = known ?? (await deciderFacts(ex, actor.userId));
  const refusal = await refusalFor(ex, inst, actor.userId, facts);
  if (refusal) throw refusal;
  return actor.userId ? (facts.realName ?? actor.userName) : actor.userName;
}

/**
 * 待审批 messages for the step now waiting: to every enabled holder of its role who may act on it
 * (refusalFor: inside the role's data scope, four eyes), in the transaction that moved the process.
 */
/** The enabled users holding a role by an enabled role, one row each (`id`). */
const roleHolders = (roleCode: string | SQL) =>
  sql`select distinct ur.user_id as id from user_roles ur
        join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
        join users u on u.id = ur.user_id and u.state = 'enabled' and u.deleted_at is null
       where r.code = ${roleCode}`;

/**
 * `holders`: the step's role holders when the caller read them already (submit: with the instance's
 * insert, a statement less a submission); else they are read here.
 */
async function tellDeciders(
  tx: Tx,
  inst: InstanceRow,
  stepNo: number,
  holders?: readonly unknown[],
): Promise<void> {
  const step = inst.steps[stepNo - 1]!;
  const ids =
    holders ??
    (await queryRows<{ id: unknown }>(tx, sql`${roleHolders(step.roleCode)} order by 1`)).map((h) => h.id);
  const waiting = { ...inst, current_step: stepNo };
  const userIds: number[] = [];
  for (const id of ids) if ((await refusalFor(tx, waiting, Number(id))) === null) userIds.push(Number(id));
  const todo = {
    userIds,
    docType: inst.doc_type,
    docCode: inst.doc_code,
    subject: inst.subject,
    fromName: inst.submitter_name,
  };
  // Nothing reads them in the transaction: they wait for the statement that ends the command (the
  // submission's state update), a statement less (writeLater, bench/README.md "Fourteenth pass").
  if (userIds.length)
    await writeLater(tx, laterOwner(inst.doc_type, inst.doc_code), (gate) => todoMessagesInsert(todo, gate)!);
}

/**
 * The process record of an action; `alongside`, a statement on the instance run with it (one round
 * trip: an approval's step move, inside the transaction that holds the document's locks).
 */
async function record(
  tx: Tx,
  inst: InstanceRow,
  step: number,
  stepName: string,
  action: ProcessRecord['action'],
  actor: Actor,
  name: string,
  comment: string | null | undefined,
  alongside?: SQL,
) {
  await tx.execute(
    sql`${alongside ? sql`with alongside as (${alongside}) ` : sql``}${recordInsert({ inst, step, stepName, action, actor, name, comment })}`,
  );
}

/** What record writes: the process record of `action` on `inst`'s step. */
interface ProcessRecord {
  inst: InstanceRow;
  step: number;
  stepName: string;
  action: 'submit' | 'approve' | 'reject' | 'revoke' | 'withdraw';
  actor: Actor;
  name: string;
  comment: string | null | undefined;
}

/** record's insert; with `gate`, written only when it holds (writeLater). */
function recordInsert(r: ProcessRecord, gate: SQL = sql`true`): SQL {
  const { inst, actor } = r;
  return sql`insert into wf_records
      (instance_id, doc_type, doc_code, round, step_no, step_name, action, actor_id, actor_name, comment)
    select ${inst.id}::bigint, ${inst.doc_type}::text, ${inst.doc_code}::text, ${inst.round}::int, ${r.step}::int,
           ${r.stepName}::text, ${r.action}::text, ${actor.userId || null}::bigint, ${r.name}::text, ${r.comment ?? null}::text
     where ${gate}`;
}

// ----- transitions -------------------------------------------------------------------------

export interface SubmitInput {
  type: string;
  code: string;
  /** The process record's notic (摘要), e.g. '合同 HT-2026-001 深圳某某科技 500万'. */
  subject: string;
  /** Decimal string; selects the steps whose amount threshold it reaches. Omitted: every step applies. */
  amount?: string | null | undefined;
  actor: Actor;
  /**
   * The document's state as the caller read it in this transaction while the row is the
   * transaction's own (inserted by it, or locked by assertEditable): the state is checked, the row
   * not read and locked again (saveDraft; a statement less a save and submit).
   */
  heldState?: DocState | undefined;
}

/**
 * draft | rejected → pending: starts a new round of the type's process at step 1 (the steps that
 * apply to the amount are fixed now). Call it in the document's save when the body says
 * `submit: true` (保存并提交), after writing the document.
 */
export async function submit(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: SubmitInput,
): Promise<TransitionResult> {
  const t = workflow.typeOf(input.type);
  const subject = input.subject.trim();
  if (!subject) throw badInput('摘要不能为空');
  if (subject.length > 200) throw badInput('摘要不能超过200个字符');
  const amount = input.amount ?? null;
  if (amount !== null && !MONEY_PATTERN.test(amount)) throw badInput('金额必须是最多两位小数的金额');

  return runCommand(
    tx,
    input.actor,
    { entity: t.type, action: 'submit', code: input.code },
    async (_tx, w) => {
      const state = input.heldState ?? (await docState(tx, t, input.code, true));
      if (!EDITABLE_STATES.includes(state)) throw stateConflict(state, '提交');

      // The process's steps that apply to the amount, the submitter's name (realName), the new
      // round's instance and its process record, and the first step's role holders, in one statement
      // (bench/README.md "Twelfth pass": a save that submits runs it in its transaction). The next
      // round is counted by the insert itself (the document's row, locked above, keeps two
      // submissions of one document apart). No step (or no process): nothing is inserted, 409.
      const uid = input.actor.userId || null;
      const [inst] = await queryRows<InstanceRow & { deciders: unknown[] }>(
        tx,
        sql`with applying as (
          select d.proc_name, s.name, s.role_code,
                 coalesce((select r.name from roles r where r.code = s.role_code and r.deleted_at is null limit 1),
                          s.role_code) as role_name,
                 row_number() over (order by s.step_no) as no
            from wf_process_defs d
            join wf_process_steps s on s.doc_type = d.doc_type
             and (s.min_amount is null or ${amount}::numeric is null or ${amount}::numeric >= s.min_amount)
           where d.doc_type = ${t.type}),
        process as (
          select min(proc_name) as proc_name, count(*)::int as step_count,
                 jsonb_agg(jsonb_build_object('no', no, 'name', name, 'roleCode', role_code, 'roleName', role_name)
                           order by no) as steps,
                 coalesce((select u.real_name from users u where u.id = ${uid}::bigint), ${input.actor.userName}::text) as name
            from applying),
        inst as (insert into wf_instances (doc_type, doc_code, round, proc_name, subject, amount, steps, step_count,
          current_step, step_role, submitted_by, submitter_name)
        select ${t.type}::text, ${input.code}::text,
          (select coalesce(max(round), 0) + 1 from wf_instances where doc_type = ${t.type} and doc_code = ${input.code}),
          proc_name, ${subject}::text, ${amount}::numeric, steps, step_count, 1, steps -> 0 ->> 'roleCode',
          ${input.actor.userId}::bigint, name
          from process where step_count > 0
        returning *),
        rec as (insert into wf_records
          (instance_id, doc_type, doc_code, round, step_no, step_name, action, actor_id, actor_name, comment)
          select id, doc_type, doc_code, round, 0, '提交', 'submit', ${uid}, submitter_name, null from inst)
        select ${INSTANCE_COLS},
          (select coalesce(json_agg(h.id order by h.id), '[]'::json) from (${roleHolders(sql`inst.step_role`)}) h) as deciders
          from inst`,
      );
      if (!inst) throw conflict(`${t.label}未配置审批流程`);
      const { deciders, ...row } = inst;
      const instance = normaliseInstance(row);
      // The first step's holders, read by the insert (the same rows tellDeciders would read).
      await tellDeciders(tx, instance, 1, deciders);
      // Audited first, so the state's update writes the row (and the save's, waiting with it).
      const steps = instance.steps;
      await w.audit({ detail: { round: instance.round, steps: steps.map((s) => s.name), subject, amount } });
      await setDocState(tx, t, input.code, state, 'pending', input.actor, [], true);
      return { state: 'pending', step: 1, stepName: steps[0]!.name, finished: false };
    },
  );
}

export interface DecideInput {
  type: string;
  code: string;
  comment?: string | null | undefined;
  /** The step the user saw (auditBody.step): 409 when the document moved on meanwhile. */
  step?: number | undefined;
  actor: Actor;
}

/**
 * Locks the latest instance and insists it is pending; otherwise 409 naming the document state.
 * `factsFor`: a user whose facts (deciderFacts) the same statement reads, a statement less an
 * approval (bench/README.md "Fourteenth pass"); they are read as the statement starts, so before
 * a wait for the instance's lock, still inside the transaction.
 */
async function lockPending(
  tx: Tx,
  t: ResolvedDocType,
  input: DecideInput,
  verb: string,
  factsFor?: number,
): Promise<InstanceRow & { facts?: DeciderFacts }> {
  let inst: (InstanceRow & { facts?: DeciderFacts }) | undefined;
  if (factsFor === undefined) inst = await latestInstance(tx, t.type, input.code, true);
  else {
    const rows = await queryRows<InstanceRow & { facts: Parameters<typeof factsOf>[0] }>(
      tx,
      sql`select ${INSTANCE_COLS}, ${factsColumn(factsFor)} as facts from wf_instances
           where doc_type = ${t.type} and doc_code = ${input.code} order by round desc limit 1 for update`,
    );
    const row = rows[0];
    if (row) inst = { ...normaliseInstance(row), facts: factsOf(row.facts, factsFor) };
  }
  if (!inst || inst.state !== 'pending') {
    throw stateConflict(await docState(tx, t, input.code, false), verb);
  }
  if (input.step !== undefined && input.step !== inst.current_step) throw conflict(MOVED_ON_MSG);
  return inst;
}

/**
 * Approves the current step (audit / pass). Checks the step's role (or admin) and four eyes;
 * on the last step runs the type's onApprove hook and turns the document `approved`, all in
 * the caller's transaction.
 */
export async function approve(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: DecideInput,
): Promise<TransitionResult> {
  const t = workflow.typeOf(input.type);
  const { facts, ...inst } = await lockPending(tx, t, input, '审核', input.actor.userId);
  return runCommand(tx, input.actor, { entity: t.type, code: input.code }, async (_tx, w) => {
    const name = await deciding(tx, inst, input.actor, facts);
    const step = inst.steps[inst.current_step - 1]!;
    const last = inst.current_step === inst.step_count;
    const next = last ? undefined : inst.steps[inst.current_step]!;
    // The record and the instance's move in one statement (the instance's row is locked already).
    // On the last step both wait for the document's state update (writeLater: a statement less an
    // approval, bench/README.md "Fourteenth pass"): only the workflow reads its tables, and it reads
    // neither again in this approval; before another step, tellDeciders reads the records.
    if (!next) {
      await writeLater(
        tx,
        laterOwner(t.type, input.code),
        (gate) => sql`update wf_instances set state = 'approved', end_time = now(), version = version + 1
                       where id = ${inst.id} and ${gate}`,
      );
      const approved: ProcessRecord = {
        inst,
        step: step.no,
        stepName: step.name,
        action: 'approve',
        actor: input.actor,
        name,
        comment: input.comment,
      };
      await writeLater(tx, laterOwner(t.type, input.code), (gate) => recordInsert(approved, gate));
    } else
      await record(
        tx,
        inst,
        step.no,
        step.name,
        'approve',
        input.actor,
        name,
        input.comment,
        sql`update wf_instances set current_step = ${next.no}, step_role = ${next.roleCode}, version = version + 1
             where id = ${inst.id}`,
      );
    const audit = () =>
      w.audit({
        action: last ? 'approve' : 'approveStep',
        detail: { round: inst.round, step: step.no, stepName: step.name, comment: input.comment ?? null },
      });
    if (!next) {
      const also = await t.hooks.onApprove?.(tx, asDoc(inst), input.actor);
      // Audited after the hook's own commands and before the update, which writes the rows.
      await audit();
      await setDocState(tx, t, input.code, 'pending', 'approved', input.actor, also ?? [], true);
      return { state: 'approved', step: null, stepName: null, finished: true };
    }
    await tellDeciders(tx, inst, next.no);
    await audit();
    return { state: 'pending', step: next.no, stepName: next.name, finished: false };
  });
}

async function checkCanReject(tx: Tx, t: ResolvedDocType, doc: WorkflowDoc) {
  const reason = await t.hooks.canReject?.(tx, doc);
  if (reason) throw conflict(reason);
}

/**
 * Rejects (unAudit / reject): a pending document at any step → rejected (editable again). An
 * approved document only when its type has an onRevoke hook (反审核), by a holder of the last
 * step's role; canReject may refuse either (409).
 */
export async function reject(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: DecideInput,
): Promise<TransitionResult> {
  const t = workflow.typeOf(input.type);
  const latest = await latestInstance(tx, t.type, input.code, true);
  if (latest?.state === 'approved' && t.hooks.onRevoke) return revoke(tx, t, latest, input);
  return runCommand(
    tx,
    input.actor,
    { entity: t.type, action: 'reject', code: input.code },
    async (_tx, w) => {
      const inst = await lockPending(tx, t, input, '驳回');
      const name = await deciding(tx, inst, input.actor);
      const doc = asDoc(inst);
      await checkCanReject(tx, t, doc);
      const step = inst.steps[inst.current_step - 1]!;
      await record(tx, inst, step.no, step.name, 'reject', input.actor, name, input.comment);
      await tx.execute(
        sql`update wf_instances set state = 'rejected', end_time = now(), version = version + 1 where id = ${inst.id}`,
      );
      await t.hooks.onReject?.(tx, doc, input.actor);
      await setDocState(tx, t, input.code, 'pending', 'rejected', input.actor);
      await w.audit({
        detail: { round: inst.round, step: step.no, stepName: step.name, comment: input.comment ?? null },
      });
      return { state: 'rejected', step: null, stepName: null, finished: false };
    },
  );
}

async function revoke(
  tx: Tx,
  t: ResolvedDocType,
  inst: InstanceRow,
  input: DecideInput,
): Promise<TransitionResult> {
  const lastStep = inst.steps[inst.step_count - 1]!;
  return runCommand(
    tx,
    input.actor,
    { entity: t.type, action: 'revoke', code: input.code },
    async (_tx, w) => {
      const { decider, selfApproval } = await deciderFacts(tx, input.actor.userId);
      if (!(await decidesAnyStep(tx, decider, [lastStep.roleCode], inst.doc_type, inst.doc_code)))
        throw noPermission(`反审核需由${lastStep.roleName}操作`);
      if (!selfApproval && inst.submitted_by === input.actor.userId) throw conflict(SELF_APPROVAL_MSG);
      const doc = asDoc(inst);
      await checkCanReject(tx, t, doc);
      const name = await realName(tx, input.actor);
      await record(tx, inst, lastStep.no, lastStep.name, 'revoke', input.actor, name, input.comment);
      await tx.execute(
        sql`update wf_instances set state = 'rejected', version = version + 1 where id = ${inst.id}`,
      );
      await t.hooks.onRevoke!(tx, doc, input.actor);
      await setDocState(tx, t, input.code, 'approved', 'rejected', input.actor);
      await w.audit({
        detail: { round: inst.round, comment: input.comment ?? null },
      });
      return { state: 'rejected', step: null, stepName: null, finished: false };
    },
  );
}

export interface WithdrawInput {
  type: string;
  code: string;
  actor: Actor;
}

/**
 * 撤回: the maker takes a pending document back (→ draft) while no approver has acted on its
 * round (docs/architecture.md "Documents and approvals"). Locks the process instance first, as
 * approve and reject do, so a concurrent decision and a withdrawal are serialised and exactly
 * one of them wins; the loser sees the instance moved on and answers 409.
 */
export async function withdraw(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: WithdrawInput,
): Promise<TransitionResult> {
  const t = workflow.typeOf(input.type);
  return runCommand(
    tx,
    input.actor,
    { entity: t.type, action: 'withdraw', code: input.code },
    async (_tx, w) => {
      const inst = await latestInstance(tx, t.type, input.code, true);
      if (!inst || inst.state !== 'pending') {
        const state = await docState(tx, t, input.code, false);
        // Approved or rejected by someone meanwhile: the approver acted.
        if (state === 'approved' || state === 'rejected') throw conflict(WITHDRAW_TOO_LATE_MSG);
        throw stateConflict(state, '撤回');
      }
      if (inst.submitted_by !== input.actor.userId) throw noPermission(WITHDRAW_NOT_MAKER_MSG);
      const acted = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from wf_records where instance_id = ${inst.id} and action <> 'submit'`,
      );
      if ((acted[0]?.n ?? 0) > 0) throw conflict(WITHDRAW_TOO_LATE_MSG);
      const name = await realName(tx, input.actor);
      await record(tx, inst, 0, '撤回', 'withdraw', input.actor, name, null);
      await tx.execute(
        sql`update wf_instances set state = 'withdrawn', end_time = now(), version = version + 1 where id = ${inst.id}`,
      );
      await setDocState(tx, t, input.code, 'pending', 'draft', input.actor);
      await w.audit({ detail: { round: inst.round } });
      return { state: 'draft', step: null, stepName: null, finished: false };
    },
  );
}
