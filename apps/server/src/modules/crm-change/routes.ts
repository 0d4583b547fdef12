import {
  changeCodeQuery,
  changeCompQuery,
  COMP_CHANGE_PATHS,
  COMP_MANAGER_PATHS,
  companyHistoryListSchema,
  infoChangeListSchema,
  managerCandidateListSchema,
  infoChangeSaveSchema,
  managerChangeListSchema,
  managerChangeSaveSchema,
} from '@portal/contract/crm-change';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { CRM_CHANGE_SCOPE_KINDS } from './scope-kinds';
import { COMPANY_USAGE } from '../company';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import {
  applyInfoChange,
  companyHistoryOf,
  deleteInfoChange,
  findInfoChange,
  INFO_TYPE,
  infoChangeInit,
  infoChangeSubmission,
  listInfoChanges,
  openIndexConflict,
  saveInfoChange,
  viewInfoChange,
} from './info';
import {
  applyManagerChange,
  deleteManagerChange,
  findManagerChange,
  listManagerCandidates,
  listManagerChanges,
  MANAGER_TYPE,
  managerChangeInit,
  managerChangeSubmission,
  saveManagerChange,
  viewManagerChange,
} from './manager';
import { openInfoChangesUsage, openManagerChangesUsage } from './customer';
import { seedDemoManager } from './demo';

import { listOf } from '../../platform/http/route-scope';
import { tableScope } from '../../platform/auth/row-scope';
import { compInfoChanges, compManagerChanges } from './schema';

const INFO = 'crm-cor-info';
const MG = 'crm-cor-mg';

/** 企业信息变更 and 管理员变更: two workflow documents over the customer record. */
export const crmChangeModule: PortalModule = {
  name: 'crm-change',
  scopeKinds: CRM_CHANGE_SCOPE_KINDS,
  register({ api, registries, db }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    // A customer with a draft or pending change cannot be deleted (company/del answers 409).
    registries.get(COMPANY_USAGE).add(openInfoChangesUsage);
    registries.get(COMPANY_USAGE).add(openManagerChangesUsage);

    // ----- 企业信息变更 -----
    api.post(
      COMP_CHANGE_PATHS.list,
      {
        perm: menu(INFO),
        scope: listOf('compInfoChange'),
        body: infoChangeListSchema,
        summary: '企业信息变更单列表',
      },
      ({ body, user }) => listInfoChanges(db, body, tableScope(user, compInfoChanges)),
    );
    api.post(
      COMP_CHANGE_PATHS.init,
      {
        perm: [button(INFO, 'add'), button(INFO, 'save')],
        scope: 'customer',
        query: changeCompQuery,
        summary: '新变更单：企业当前信息',
      },
      ({ query }) => infoChangeInit(db, query.compCode),
    );
    registerDocument(api, db, workflow, {
      type: INFO_TYPE,
      table: 'comp_info_changes',
      stamps: true,
      hooks: { onApprove: applyInfoChange },
      codeParam: 'bizCode',
      scope: ['customer'],
      view: {
        path: COMP_CHANGE_PATHS.view,
        perm: menu(INFO),
        summary: '企业信息变更单（变更前后）',
        read: viewInfoChange,
      },
      save: {
        path: COMP_CHANGE_PATHS.save,
        perm: [button(INFO, 'add'), button(INFO, 'save')],
        body: infoChangeSaveSchema,
        write: (tx, body, { actor }) => saveInfoChange(tx, body, actor),
        find: findInfoChange,
        submission: infoChangeSubmission,
        onError: openIndexConflict,
      },
      remove: {
        path: COMP_CHANGE_PATHS.del,
        perm: button(INFO, 'delete'),
        query: changeCodeQuery,
        remove: deleteInfoChange,
      },
      audit: { path: COMP_CHANGE_PATHS.audit, perm: button(INFO, 'audit') },
      unAudit: { path: COMP_CHANGE_PATHS.unAudit, perm: button(INFO, 'unAudit') },
    });
    api.post(
      COMP_CHANGE_PATHS.history,
      {
        perm: [menu(INFO), menu(MG), menu('crm-cor-cor-v')],
        scope: 'customer',
        body: companyHistoryListSchema,
        summary: '企业变更历史（被替换的旧值）',
      },
      ({ body }) => companyHistoryOf(db, body),
    );

    // ----- 管理员变更 -----
    api.post(
      COMP_MANAGER_PATHS.list,
      {
        perm: menu(MG),
        scope: listOf('compManagerChange'),
        body: managerChangeListSchema,
        summary: '管理员变更单列表',
      },
      ({ body, user }) => listManagerChanges(db, body, tableScope(user, compManagerChanges)),
    );
    api.post(
      COMP_MANAGER_PATHS.init,
      {
        perm: [button(MG, 'add'), button(MG, 'save')],
        scope: 'customer',
        query: changeCompQuery,
        summary: '新管理员变更单：当前管理员与企业用户',
      },
      ({ query }) => managerChangeInit(db, query.compCode),
    );
    api.post(
      COMP_MANAGER_PATHS.users,
      {
        perm: [button(MG, 'add'), button(MG, 'save')],
        scope: 'customer',
        body: managerCandidateListSchema,
        summary: '可选为新管理员的企业用户（分页搜索）',
      },
      ({ body }) => listManagerCandidates(db, body),
    );
    registerDocument(api, db, workflow, {
      type: MANAGER_TYPE,
      table: 'comp_manager_changes',
      stamps: true,
      hooks: { onApprove: applyManagerChange },
      codeParam: 'bizCode',
      scope: ['customer'],
      view: {
        path: COMP_MANAGER_PATHS.view,
        perm: menu(MG),
        summary: '管理员变更单',
        read: viewManagerChange,
      },
      save: {
        path: COMP_MANAGER_PATHS.save,
        perm: [button(MG, 'add'), button(MG, 'save')],
        body: managerChangeSaveSchema,
        write: (tx, body, { actor }) => saveManagerChange(tx, body, actor),
        find: findManagerChange,
        submission: managerChangeSubmission,
      },
      remove: {
        path: COMP_MANAGER_PATHS.del,
        perm: button(MG, 'delete'),
        query: changeCodeQuery,
        remove: deleteManagerChange,
      },
      audit: { path: COMP_MANAGER_PATHS.audit, perm: button(MG, 'audit') },
      unAudit: { path: COMP_MANAGER_PATHS.unAudit, perm: button(MG, 'unAudit') },
    });
  },
  demo: seedDemoManager,
};
