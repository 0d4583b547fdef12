import { sql, type SQL } from 'drizzle-orm';
import type { Page } from '@portal/contract/api';
import type { z } from 'zod';
import {
  DOC_TYPE_KEYS,
  docTypeLabel,
  type ApprovalRecord,
  type CirculationItem,
  type DocState,
  type ProcessDefList,
  type ProcessDefinition,
  type ProcessStepView,
  type ProcessView,
  type InstanceItem,
  type instanceListSchema,
  type TodoItem,
  type todoListSchema,
  type toReadListSchema,
  type WorkflowCounts,
  type WorkflowUser,
} from '@portal/contract/workflow';
import { queryRows, type Executor } from '../../platform/db/client';
import { countOf, likePattern, offsetOf, page } from '../../platform/http/list';
import type { WorkflowRegistry } from './registry';
import { allowSelfApproval, latestInstance, refusalFor } from './service';
import { decidesStep, deciderOf } from './deciders';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { documentScope } from '../../platform/auth/row-scope';

/** The workflow's reads: process views, records, to-do, to-read, definitions (the writes are in writes.ts). */

const num = (v: unknown) => Number(v);
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));

// ----- one document --------------------------------------------------------------------------

export async function currentDocState(
  ex: Executor,
  workflow: WorkflowRegistry,
  type: string,
  code: string,
): Promise<DocState | null> {
  // The document table belongs to its module; its state is readable once the type is registered.
  const t = workflow.find(type);
  if (!t) return null;
  const rows = await queryRows<{ state: DocState }>(
    ex,
    sql`select ${sql.identifier(t.stateColumn)} as state from ${sql.identifier(t.table)}
         where ${sql.identifier(t.codeColumn)} = ${code}${t.softDelete ? sql` and deleted_at is null` : sql``}`,
  );
  return rows[0]?.state ?? null;
}

/** The audit header and flow chart of a document's latest round, for `userId`. */
export async function processView(
  ex: Executor,
  workflow: WorkflowRegistry,
  type: string,
  code: string,
  userId: number,
): Promise<ProcessView> {
  const info = workflow.info(type);
  const label = info?.label ?? type;
  const inst = await latestInstance(ex, type, code);
  const ownState = await currentDocState(ex, workflow, type, code);
  if (!inst) {
    return {
      docType: type,
      docTypeLabel: label,
      menuCode: info?.menuCode ?? null,
      docCode: code,
      docState: ownState ?? 'draft',
      procName: null,
      status: null,
      startTime: null,
      endTime: null,
      useTime: null,
      notic: null,
      amount: null,
      submitterName: null,
      round: 0,
      currentStep: null,
      steps: [],
      canApprove: false,
      cannotReason: null,
      canWithdraw: false,
      rejection: null,
      decide: workflow.decidePathsOf(type),
    };
  }
  const allActs = await queryRows<{
    step_no: number;
    action: string;
    actor_name: string;
    comment: string | null;
    at: unknown;
  }>(
    ex,
    sql`select step_no, action, actor_name, comment, at from wf_records where instance_id = ${inst.id} order by id`,
  );
  // The steps' own decisions (submit and withdraw are recorded at step 0).
  const acts = allActs.filter((a) => a.step_no > 0);
  const steps: ProcessStepView[] = inst.steps.map((s) => {
    const act = acts.filter((a) => a.step_no === s.no).at(-1);
    let status: ProcessStepView['status'] = 'waiting';
    if (act?.action === 'approve') status = 'done';
    if (act?.action === 'reject' || act?.action === 'revoke') status = 'rejected';
    if (inst.state === 'pending' && s.no === inst.current_step) status = 'current';
    return {
      no: s.no,
      name: s.name,
      roleCode: s.roleCode,
      roleName: s.roleName,
      status,
      actorName: act?.actor_name ?? null,
      at: act ? iso(act.at) : null,
    };
  });
  const start = new Date(iso(inst.start_time)).getTime();
  const end = inst.end_time ? new Date(iso(inst.end_time)).getTime() : Date.now();
  let canApprove = false;
  let cannotReason: string | null = null;
  if (inst.state === 'pending') {
    const refusal = await refusalFor(ex, inst, userId);
    canApprove = refusal === null;
    cannotReason = refusal?.message ?? null;
  }
  // 撤回 while nobody acted (the submit record is the only one of the round).
  const canWithdraw =
    inst.state === 'pending' && inst.submitted_by === userId && !acts.some((a) => a.action !== 'submit');
  const lastNo = acts.findLast((a) => a.action === 'reject' || a.action === 'revoke');
  const rejection =
    inst.state === 'rejected' && ownState === 'rejected' && lastNo
      ? { actorName: lastNo.actor_name, comment: lastNo.comment, at: iso(lastNo.at) }
      : null;
  return {
    docType: type,
    docTypeLabel: label,
    menuCode: info?.menuCode ?? null,
    docCode: code,
    docState: ownState ?? (inst.state === 'withdrawn' ? 'draft' : (inst.state as DocState)),
    procName: inst.proc_name,
    status: inst.state,
    startTime: iso(inst.start_time),
    endTime: isoOrNull(inst.end_time),
    useTime: Math.round(((end - start) / 86_400_000) * 10) / 10,
    notic: inst.subject,
    amount: inst.amount,
    submitterName: inst.submitter_name,
    round: inst.round,
    currentStep: inst.state === 'pending' ? inst.current_step : null,
    steps,
    canApprove,
    cannotReason,
    canWithdraw,
    rejection,
    decide: workflow.decidePathsOf(type),
  };
}

/** Every approval record of a document, all rounds, oldest first. */
export async function records(ex: Executor, type: string, code: string): Promise<ApprovalRecord[]> {
  const rows = await queryRows<{
    id: unknown;
    round: number;
    step_no: number;
    step_name: string;
    action: ApprovalRecord['action'];
    actor_id: unknown;
    actor_name: string;
    comment: string | null;
    at: unknown;
  }>(
    ex,
    sql`select id, round, step_no, step_name, action, actor_id, actor_name, comment, at
          from wf_records where doc_type = ${type} and doc_code = ${code} order by id`,
  );
  return rows.map((r) => ({
    id: num(r.id),
    round: r.round,
    step: r.step_no,
    stepName: r.step_name,
    action: r.action,
    actorId: r.actor_id === null ? null : num(r.actor_id),
    actorName: r.actor_name,
    comment: r.comment,
    at: iso(r.at),
  }));
}

// ----- to-do and to-read ---------------------------------------------------------------------

/**
 * Pending instances whose current step this user may decide (the step's role inside the data scope
 * it grants, or admin: deciders.ts; not their own unless allowed).
 */
async function todoWhere(ex: Executor, userId: number, docType: string | undefined): Promise<SQL> {
  const self = await allowSelfApproval(ex);
  const decider = await deciderOf(ex, userId);
  return sql`from wf_instances i where i.state = 'pending'
    and ${decidesStep(decider, sql`i.step_role`, sql`i.doc_type`, sql`i.doc_code`)}
    ${
      self
        ? sql``
        : sql`and i.submitted_by <> ${userId}
      and not exists (select 1 from wf_records w where w.instance_id = i.id and w.action = 'approve' and w.actor_id = ${userId})`
    }
    ${docType ? sql`and i.doc_type = ${docType}` : sql``}`;
}

/**
 * The maker's rejected rounds (被驳回 to-do): the latest round of a document they submitted, ended
 * by a rejection or revocation, while the document itself is still rejected (not yet submitted
 * again, not deleted). docs/architecture.md "Documents and approvals".
 */
function rejectedWhere(workflow: WorkflowRegistry, userId: number, docType: string | undefined): SQL {
  const stillRejected = workflow.all().map(
    (t) =>
      sql`(i.doc_type = ${t.type} and exists (select 1 from ${sql.identifier(t.table)} d
            where d.${sql.identifier(t.codeColumn)} = i.doc_code and d.${sql.identifier(t.stateColumn)} = 'rejected'
            ${t.softDelete ? sql`and d.deleted_at is null` : sql``}))`,
  );
  return sql`from wf_instances i where i.state = 'rejected' and i.submitted_by = ${userId}
    and not exists (select 1 from wf_instances j where j.doc_type = i.doc_type and j.doc_code = i.doc_code and j.round > i.round)
    and (${stillRejected.length ? sql.join(stillRejected, sql` or `) : sql`false`})
    ${docType ? sql`and i.doc_type = ${docType}` : sql``}`;
}

/** Both kinds of to-do as one relation `t` (kind, the instance's columns, reason, when). */
async function todoRelation(
  ex: Executor,
  workflow: WorkflowRegistry,
  userId: number,
  docType: string | undefined,
): Promise<SQL> {
  const cols = sql`i.id, i.doc_type, i.doc_code, i.proc_name, i.subject, i.amount, i.current_step, i.steps,
    i.submitter_name`;
  const lastDecision = (col: SQL) =>
    sql`(select ${col} from wf_records w where w.instance_id = i.id and w.action in ('reject', 'revoke')
          order by w.id desc limit 1)`;
  return sql`from (
      select ${cols}, 'decide'::text as kind, null::text as reason, null::text as rejected_by, i.start_time as at
        ${await todoWhere(ex, userId, docType)}
      union all
      select ${cols}, 'rejected'::text as kind, ${lastDecision(sql`w.comment`)} as reason,
             ${lastDecision(sql`w.actor_name`)} as rejected_by, ${lastDecision(sql`w.at`)} as at
        ${rejectedWhere(workflow, userId, docType)}
    ) t`;
}

export async function todo(
  ex: Executor,
  workflow: WorkflowRegistry,
  userId: number,
  q: z.output<typeof todoListSchema>,
): Promise<Page<TodoItem>> {
  const from = await todoRelation(ex, workflow, userId, q.docType);
  // The maker's own rejected documents first: they wait for nobody else.
  const order =
    q.orderBy === 'docType'
      ? sql`t.kind = 'rejected' desc, t.doc_type ${q.order === 'desc' ? sql`desc` : sql`asc`}, t.at`
      : sql`t.kind = 'rejected' desc, t.at ${q.order === 'desc' ? sql`desc` : sql`asc`}`;
  const rows = await queryRows<{
    kind: TodoItem['kind'];
    reason: string | null;
    rejected_by: string | null;
    doc_type: string;
    doc_code: string;
    proc_name: string;
    subject: string;
    amount: string | null;
    current_step: number;
    steps: { name: string }[];
    submitter_name: string;
    at: unknown;
  }>(
    ex,
    sql`select t.kind, t.reason, t.rejected_by, t.doc_type, t.doc_code, t.proc_name, t.subject,
               t.amount::text as amount, t.current_step, t.steps, t.submitter_name, t.at ${from}
         order by ${order}, t.id limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const list = rows.map((r) => ({
    kind: r.kind,
    reason: r.reason,
    rejectedBy: r.rejected_by,
    docType: r.doc_type,
    docTypeLabel: workflow.info(r.doc_type)?.label ?? docTypeLabel(r.doc_type),
    docCode: r.doc_code,
    procName: r.proc_name,
    notic: r.subject,
    amount: r.amount,
    step: r.current_step,
    stepName: r.kind === 'rejected' ? '被驳回' : (r.steps[r.current_step - 1]?.name ?? ''),
    submitterName: r.submitter_name,
    startTime: iso(r.at),
  }));
  return page(list, await countOf(ex, from), q);
}

/** 流程监控: process instances of every document, newest first (or by the chosen column). */
export async function instances(
  ex: Executor,
  workflow: WorkflowRegistry,
  q: z.output<typeof instanceListSchema>,
  user: ScopeUser,
): Promise<Page<InstanceItem>> {
  const where = sql`from wf_instances i where ${documentScope(user, sql`i.doc_type`, sql`i.doc_code`, DOC_TYPE_KEYS)}
    ${q.docType ? sql`and i.doc_type = ${q.docType}` : sql``}
    ${q.status ? sql`and i.state = ${q.status}` : sql``}
    ${q.keyword ? sql`and (i.doc_code ilike ${likePattern(q.keyword)} or i.subject ilike ${likePattern(q.keyword)} or i.submitter_name ilike ${likePattern(q.keyword)})` : sql``}`;
  const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
  const order = q.orderBy === 'endTime' ? sql`i.end_time ${dir} nulls first` : sql`i.start_time ${dir}`;
  const rows = await queryRows<{
    doc_type: string;
    doc_code: string;
    round: number;
    proc_name: string;
    subject: string;
    amount: string | null;
    state: InstanceItem['status'];
    current_step: number;
    steps: { name: string }[];
    submitter_name: string;
    start_time: unknown;
    end_time: unknown;
  }>(
    ex,
    sql`select i.doc_type, i.doc_code, i.round, i.proc_name, i.subject, i.amount::text as amount, i.state, i.current_step,
               i.steps, i.submitter_name, i.start_time, i.end_time ${where}
         order by ${order}, i.id desc limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const list = rows.map((r) => ({
    docType: r.doc_type,
    docTypeLabel: workflow.info(r.doc_type)?.label ?? r.doc_type,
    docCode: r.doc_code,
    round: r.round,
    procName: r.proc_name,
    notic: r.subject,
    amount: r.amount,
    status: r.state,
    currentStep: r.state === 'pending' ? r.current_step : null,
    stepName: r.state === 'pending' ? (r.steps[r.current_step - 1]?.name ?? null) : null,
    submitterName: r.submitter_name,
    startTime: iso(r.start_time),
    endTime: isoOrNull(r.end_time),
  }));
  return page(list, await countOf(ex, where), q);
}

const CIRC_COLS = sql`c.id, c.doc_type, c.doc_code, c.subject, c.from_name, c.to_user_id, u.real_name as to_name,
  c.message, c.sent_at, c.read_at`;

interface CircRow {
  id: unknown;
  doc_type: string;
  doc_code: string;
  subject: string;
  from_name: string;
  to_user_id: unknown;
  to_name: string;
  message: string | null;
  sent_at: unknown;
  read_at: unknown;
}

function circItem(workflow: WorkflowRegistry, r: CircRow, userId: number): CirculationItem {
  return {
    id: num(r.id),
    docType: r.doc_type,
    docTypeLabel: workflow.info(r.doc_type)?.label ?? r.doc_type,
    docCode: r.doc_code,
    notic: r.subject,
    fromName: r.from_name,
    toUserId: num(r.to_user_id),
    toName: r.to_name,
    message: r.message,
    sentAt: iso(r.sent_at),
    readAt: isoOrNull(r.read_at),
    mine: num(r.to_user_id) === userId,
  };
}

export async function toRead(
  ex: Executor,
  workflow: WorkflowRegistry,
  userId: number,
  q: z.output<typeof toReadListSchema>,
): Promise<Page<CirculationItem>> {
  const where = sql`from wf_circulations c join users u on u.id = c.to_user_id where c.to_user_id = ${userId}
    ${q.read === true ? sql`and c.read_at is not null` : q.read === false ? sql`and c.read_at is null` : sql``}
    ${q.docType ? sql`and c.doc_type = ${q.docType}` : sql``}`;
  const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
  const order = q.orderBy === 'docType' ? sql`c.doc_type ${dir}, c.sent_at desc` : sql`c.sent_at ${dir}`;
  const rows = await queryRows<CircRow>(
    ex,
    sql`select ${CIRC_COLS} ${where} order by ${order}, c.id desc limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  return page(
    rows.map((r) => circItem(workflow, r, userId)),
    await countOf(ex, where),
    q,
  );
}

export async function counts(
  ex: Executor,
  workflow: WorkflowRegistry,
  userId: number,
): Promise<WorkflowCounts> {
  const todoN = await countOf(ex, await todoRelation(ex, workflow, userId, undefined));
  const readN = await countOf(ex, sql`from wf_circulations where to_user_id = ${userId} and read_at is null`);
  return { todo: todoN, toRead: readN };
}

export async function circulationOf(
  ex: Executor,
  workflow: WorkflowRegistry,
  type: string,
  code: string,
  userId: number,
): Promise<CirculationItem[]> {
  const rows = await queryRows<CircRow>(
    ex,
    sql`select ${CIRC_COLS} from wf_circulations c join users u on u.id = c.to_user_id
         where c.doc_type = ${type} and c.doc_code = ${code} order by c.sent_at desc, c.id desc`,
  );
  return rows.map((r) => circItem(workflow, r, userId));
}

/** Is the user a recipient of the document's circulation (lets them open its audit view)? */
export async function isRecipient(
  ex: Executor,
  type: string,
  code: string,
  userId: number,
): Promise<boolean> {
  const rows = await queryRows<{ ok: boolean }>(
    ex,
    sql`select exists (select 1 from wf_circulations where doc_type = ${type} and doc_code = ${code}
          and to_user_id = ${userId}) as ok`,
  );
  return rows[0]?.ok ?? false;
}

/** The circulation picker: who they are (name and organisation), not their login names. */
export async function workflowUsers(ex: Executor): Promise<WorkflowUser[]> {
  const rows = await queryRows<{
    id: unknown;
    real_name: string;
    dept_name: string | null;
  }>(
    ex,
    sql`select u.id, u.real_name, d.name as dept_name
          from users u left join depts d on d.id = u.dept_id
         where u.state = 'enabled' and u.deleted_at is null order by u.real_name, u.id limit 2000`,
  );
  return rows.map((r) => ({
    id: num(r.id),
    realName: r.real_name,
    deptName: r.dept_name,
  }));
}

// ----- process definitions -------------------------------------------------------------------

export async function definitions(ex: Executor, workflow: WorkflowRegistry): Promise<ProcessDefList> {
  const defs = await queryRows<{ doc_type: string; proc_name: string; version: number; updated_at: unknown }>(
    ex,
    sql`select doc_type, proc_name, version, updated_at from wf_process_defs order by doc_type`,
  );
  const steps = await queryRows<{
    doc_type: string;
    step_no: number;
    name: string;
    role_code: string;
    role_name: string | null;
    min_amount: string | null;
  }>(
    ex,
    sql`select s.doc_type, s.step_no, s.name, s.role_code, s.min_amount::text as min_amount,
               (select r.name from roles r where r.code = s.role_code and r.deleted_at is null limit 1) as role_name
          from wf_process_steps s order by s.doc_type, s.step_no`,
  );
  const roles = await queryRows<{ code: string; name: string }>(
    ex,
    sql`select code, name from roles where deleted_at is null and state = 'enabled' order by id`,
  );
  const list: ProcessDefinition[] = defs.map((d) => ({
    docType: d.doc_type,
    docTypeLabel: workflow.info(d.doc_type)?.label ?? d.doc_type,
    procName: d.proc_name,
    version: d.version,
    updatedAt: iso(d.updated_at),
    steps: steps
      .filter((s) => s.doc_type === d.doc_type)
      .map((s) => ({
        no: s.step_no,
        name: s.name,
        roleCode: s.role_code,
        roleName: s.role_name ?? s.role_code,
        minAmount: s.min_amount,
      })),
  }));
  // Catalogue order (contracts, money, credit, CRM); unknown types last.
  const rank = (t: string) => {
    const i = (DOC_TYPE_KEYS as readonly string[]).indexOf(t);
    return i < 0 ? DOC_TYPE_KEYS.length : i;
  };
  list.sort((a, b) => rank(a.docType) - rank(b.docType) || a.docType.localeCompare(b.docType));
  return { list, roles };
}
