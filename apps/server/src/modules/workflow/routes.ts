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
import { button, menu } from '@portal/contract/menus';
import type { SessionUser } from '../../platform/auth/sessions';
import type { Executor } from '../../platform/db/client';
import { badInput, noPermission } from '../../platform/errors';
import type { PortalModule } from '../../platform/module';
import { docTypeInfo } from './registry';
import { seedWorkflow } from './seed';
import { holdsRole, latestInstance } from './service';
import {
  circulate,
  circulationOf,
  counts,
  definitions,
  instances,
  isRecipient,
  markRead,
  processView,
  records,
  saveDefinition,
  todo,
  toRead,
  workflowUsers,
} from './queries';

const p = (path: string) => `/api${path}`;

function menuOf(docType: string): string {
  const info = docTypeInfo(docType);
  if (!info) throw badInput('单据类型不正确');
  return info.menuCode;
}

/**
 * Who may open a document's audit views: holders of its screen's menu code (or admin, or the
 * process screen ft-process), the
 * colleagues it was circulated to, and whoever may decide one of its steps.
 */
async function assertCanView(ex: Executor, user: SessionUser, ref: DocRef): Promise<void> {
  const code = menuOf(ref.docType);
  // ft-process: the process administrators' 流程监控 opens any document's process.
  if (user.codes.has('admin') || user.codes.has(code) || user.codes.has(menu('ft-process'))) return;
  if (await isRecipient(ex, ref.docType, ref.docCode, user.userId)) return;
  const inst = await latestInstance(ex, ref.docType, ref.docCode);
  for (const s of inst?.steps ?? []) if (await holdsRole(ex, user.userId, s.roleCode)) return;
  throw noPermission();
}

export const workflowModule: PortalModule = {
  name: 'workflow',
  async seed({ db, config }) {
    await seedWorkflow(db, config.allowSelfApproval);
  },
  register({ api, db }) {
    api.post(
      p(WORKFLOW_PATHS.todo),
      { perm: 'session', body: todoListSchema, summary: '我的待办' },
      ({ body, user }) => todo(db, user.userId, body),
    );
    api.post(
      p(WORKFLOW_PATHS.toRead),
      { perm: 'session', body: toReadListSchema, summary: '我的待阅' },
      ({ body, user }) => toRead(db, user.userId, body),
    );
    api.post(p(WORKFLOW_PATHS.counts), { perm: 'session', summary: '待办、待阅数' }, ({ user }) =>
      counts(db, user.userId),
    );
    api.post(
      p(WORKFLOW_PATHS.process),
      { perm: 'session', query: docRefQuery, summary: '单据的审批流程（表头与流程图）' },
      async ({ query, user }) => {
        await assertCanView(db, user, query);
        return processView(db, query.docType, query.docCode, user.userId);
      },
    );
    api.post(
      p(WORKFLOW_PATHS.records),
      { perm: 'session', query: docRefQuery, summary: '单据的审批记录' },
      async ({ query, user }) => {
        await assertCanView(db, user, query);
        return records(db, query.docType, query.docCode);
      },
    );
    api.post(
      p(WORKFLOW_PATHS.circulation),
      { perm: 'session', query: docRefQuery, summary: '单据的传阅记录' },
      async ({ query, user }) => {
        await assertCanView(db, user, query);
        return circulationOf(db, query.docType, query.docCode, user.userId);
      },
    );
    api.post(
      p(WORKFLOW_PATHS.circulate),
      { perm: 'session', query: docRefQuery, body: circulateSchema, summary: '传阅单据' },
      async ({ query, body, user, actor }) => {
        const code = `${menuOf(query.docType)}:circulate`;
        if (!user.codes.has('admin') && !user.codes.has(code)) throw noPermission();
        return circulate(db, {
          type: query.docType,
          code: query.docCode,
          userIds: body.userIds,
          message: body.message,
          actor,
        });
      },
    );
    api.post(
      p(WORKFLOW_PATHS.markRead),
      { perm: 'session', query: idQuery, summary: '标记已阅' },
      ({ query, actor }) => markRead(db, query.id, actor),
    );
    api.post(p(WORKFLOW_PATHS.users), { perm: 'session', summary: '可传阅的同事' }, () => workflowUsers(db));
    api.post(
      p(WORKFLOW_PATHS.instances),
      { perm: menu('ft-process'), body: instanceListSchema, summary: '流程监控：全部审批流程实例' },
      ({ body }) => instances(db, body),
    );
    api.post(p(WORKFLOW_PATHS.defList), { perm: menu('ft-process'), summary: '审批流程定义' }, () =>
      definitions(db),
    );
    api.post(
      p(WORKFLOW_PATHS.defSave),
      { perm: button('ft-process', 'save'), body: processSaveSchema, summary: '保存审批流程定义' },
      ({ body, actor }) => saveDefinition(db, body, actor),
    );
  },
};
