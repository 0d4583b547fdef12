import {
  circulateSchema,
  docRefQuery,
  idQuery,
  instanceListSchema,
  processSaveSchema,
  todoListSchema,
  toReadListSchema,
  WORKFLOW_PATHS,
  type DocRef,
} from '@portal/contract/workflow';
import { ALL_CODES, button, menu } from '@portal/contract/menus';
import { UNSCOPED } from '../../platform/http/route-scope';
import type { SessionUser } from '../../platform/auth/sessions';
import type { Executor } from '../../platform/db/client';
import { badInput, noPermission, notFound } from '../../platform/errors';
import { kindOfDocType, rowVisibility } from '../../platform/auth/row-scope';
import type { PortalModule } from '../../platform/module';
import { WORKFLOW_REGISTRY, type WorkflowRegistry } from './registry';
import { seedWorkflow } from './seed';
import { latestInstance, withdraw } from './service';
import { decidesAnyStep, deciderOf } from './deciders';
import {
  circulationOf,
  counts,
  definitions,
  instances,
  isRecipient,
  processView,
  records,
  todo,
  toRead,
  workflowUsers,
} from './queries';
import { circulate, markRead, saveDefinition } from './writes';

/** The audit views name their document by docType and docCode: assertCanView checks it. */
const FOLLOWS_DOCUMENT = { none: 'the document named by docType and docCode is checked by assertCanView' };
/** Who may circulate a document: the circulation picker is theirs. */
const CIRCULATORS = [...ALL_CODES].filter((c) => c.endsWith(':circulate'));

function menuOf(workflow: WorkflowRegistry, docType: string): string {
  const info = workflow.info(docType);
  if (!info) throw badInput('单据类型不正确');
  return info.menuCode;
}

/**
 * Who may open a document's audit views (they follow the document: SECURITY.md "Approvals"):
 * holders of its screen's menu code (or admin, or the process screen ft-process) for whom the
 * document lies inside their data scope, the colleagues it was circulated to, and whoever may act
 * on one of its steps (the step's role inside the data scope that role grants: deciders.ts). Anyone
 * else holding the screen or one of the steps' roles gets 404, as the document's own view answers.
 */
async function assertCanView(
  ex: Executor,
  workflow: WorkflowRegistry,
  user: SessionUser,
  ref: DocRef,
): Promise<void> {
  const code = menuOf(workflow, ref.docType);
  const screen = user.codes.has('admin') || user.codes.has(code) || user.codes.has(menu('ft-process'));
  if (screen && (await docInScope(ex, user, ref))) return;
  if (await isRecipient(ex, ref.docType, ref.docCode, user.userId)) return;
  const stepRoles = (await latestInstance(ex, ref.docType, ref.docCode))?.steps.map((s) => s.roleCode) ?? [];
  const decider = await deciderOf(ex, user.userId);
  if (await decidesAnyStep(ex, decider, stepRoles, ref.docType, ref.docCode)) return;
  if (screen || decider.roles.some((r) => stepRoles.includes(r.code)))
    throw notFound(workflow.info(ref.docType)?.label ?? '单据');
  throw noPermission();
}

/** Whether the document is inside the user's data scope (true for types without an owner). */
async function docInScope(ex: Executor, user: SessionUser, ref: DocRef): Promise<boolean> {
  const kind = kindOfDocType(ref.docType);
  return kind === undefined || (await rowVisibility(ex, kind, ref.docCode, user)) !== 'hidden';
}

export const workflowModule: PortalModule = {
  name: 'workflow',
  async seed({ db, config }) {
    await seedWorkflow(db, config.allowSelfApproval);
  },
  register({ api, db, registries }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    api.post(
      WORKFLOW_PATHS.todo,
      { perm: 'session', scope: UNSCOPED.own, body: todoListSchema, summary: '我的待办' },
      ({ body, user }) => todo(db, workflow, user.userId, body),
    );
    api.post(
      WORKFLOW_PATHS.toRead,
      { perm: 'session', scope: UNSCOPED.own, body: toReadListSchema, summary: '我的待阅' },
      ({ body, user }) => toRead(db, workflow, user.userId, body),
    );
    api.post(
      WORKFLOW_PATHS.counts,
      { perm: 'session', scope: UNSCOPED.own, summary: '待办、待阅数' },
      ({ user }) => counts(db, workflow, user.userId),
    );
    api.post(
      WORKFLOW_PATHS.process,
      {
        perm: 'session',
        scope: FOLLOWS_DOCUMENT,
        query: docRefQuery,
        summary: '单据的审批流程（表头与流程图）',
      },
      async ({ query, user }) => {
        await assertCanView(db, workflow, user, query);
        return processView(db, workflow, query.docType, query.docCode, user.userId);
      },
    );
    api.post(
      WORKFLOW_PATHS.records,
      { perm: 'session', scope: FOLLOWS_DOCUMENT, query: docRefQuery, summary: '单据的审批记录' },
      async ({ query, user }) => {
        await assertCanView(db, workflow, user, query);
        return records(db, query.docType, query.docCode);
      },
    );
    api.post(
      WORKFLOW_PATHS.circulation,
      { perm: 'session', scope: FOLLOWS_DOCUMENT, query: docRefQuery, summary: '单据的传阅记录' },
      async ({ query, user }) => {
        await assertCanView(db, workflow, user, query);
        return circulationOf(db, workflow, query.docType, query.docCode, user.userId);
      },
    );
    api.post(
      WORKFLOW_PATHS.circulate,
      {
        perm: 'session',
        scope: FOLLOWS_DOCUMENT,
        query: docRefQuery,
        body: circulateSchema,
        summary: '传阅单据',
      },
      async ({ query, body, user, actor }) => {
        const code = `${menuOf(workflow, query.docType)}:circulate`;
        if (!user.codes.has('admin') && !user.codes.has(code)) throw noPermission();
        if (!(await docInScope(db, user, query)))
          throw notFound(workflow.info(query.docType)?.label ?? '单据');
        return circulate(db, workflow, {
          type: query.docType,
          code: query.docCode,
          userIds: body.userIds,
          message: body.message,
          actor,
        });
      },
    );
    api.post(
      WORKFLOW_PATHS.withdraw,
      {
        perm: 'session',
        scope: FOLLOWS_DOCUMENT,
        query: docRefQuery,
        summary: '撤回已提交的单据（仅提交人，审批人处理前）',
      },
      async ({ query, user, actor }) => {
        await assertCanView(db, workflow, user, query);
        // The maker only: checked by withdraw() under the instance lock.
        return db.transaction((tx) =>
          withdraw(tx, workflow, { type: query.docType, code: query.docCode, actor }),
        );
      },
    );
    api.post(
      WORKFLOW_PATHS.markRead,
      { perm: 'session', scope: UNSCOPED.own, query: idQuery, summary: '标记已阅' },
      ({ query, actor }) => markRead(db, query.id, actor),
    );
    api.post(
      WORKFLOW_PATHS.users,
      { perm: CIRCULATORS, scope: UNSCOPED.picker, summary: '可传阅的同事' },
      () => workflowUsers(db),
    );
    api.post(
      WORKFLOW_PATHS.instances,
      {
        perm: menu('ft-process'),
        scope: { none: 'each instance follows its document: narrowed by documentScope' },
        body: instanceListSchema,
        summary: '流程监控：全部审批流程实例',
      },
      ({ body, user }) => instances(db, workflow, body, user),
    );
    api.post(
      WORKFLOW_PATHS.defList,
      { perm: menu('ft-process'), scope: UNSCOPED.reference, summary: '审批流程定义' },
      () => definitions(db, workflow),
    );
    api.post(
      WORKFLOW_PATHS.defSave,
      {
        perm: button('ft-process', 'save'),
        scope: UNSCOPED.reference,
        body: processSaveSchema,
        summary: '保存审批流程定义',
      },
      ({ body, actor }) => saveDefinition(db, body, actor),
    );
  },
};
