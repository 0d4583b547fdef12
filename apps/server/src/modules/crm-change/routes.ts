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
import { registerCompanyUsageCheck } from '../company/service';
import { registerDocType } from '../workflow/registry';
import { assertDeletable, assertEditable } from '../workflow/service';
import { auditRoutes } from '../workflow/wire';
import {
  applyInfoChange,
  companyHistoryOf,
  deleteInfoChange,
  findInfoChange,
  INFO_TYPE,
  infoChangeInit,
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
  saveManagerChange,
  viewManagerChange,
} from './manager';
import { openInfoChangesUsage, openManagerChangesUsage } from './customer';
import { seedDemoManager } from './demo';

const p = (path: string) => `/api${path}`;
const INFO = 'crm-cor-info';
const MG = 'crm-cor-mg';

/** 企业信息变更 and 管理员变更 (SPEC §2.3): two workflow documents over the customer record. */
export const crmChangeModule: PortalModule = {
  name: 'crm-change',
  register({ api, db }) {
    // A customer with a draft or pending change cannot be deleted (company/del answers 409).
    registerCompanyUsageCheck(openInfoChangesUsage);
    registerCompanyUsageCheck(openManagerChangesUsage);
    registerDocType({
      type: INFO_TYPE,
      table: 'comp_info_changes',
      stamps: true,
      hooks: { onApprove: applyInfoChange },
    });
    registerDocType({
      type: MANAGER_TYPE,
      table: 'comp_manager_changes',
      stamps: true,
      hooks: { onApprove: applyManagerChange },
    });

    // ----- 企业信息变更 -----
    api.post(
      p(COMP_CHANGE_PATHS.list),
      { perm: menu(INFO), body: infoChangeListSchema, summary: '企业信息变更单列表' },
      ({ body }) => listInfoChanges(db, body),
    );
    api.post(
      p(COMP_CHANGE_PATHS.init),
      {
        perm: [button(INFO, 'add'), button(INFO, 'save')],
        query: changeCompQuery,
        summary: '新变更单：企业当前信息',
      },
      ({ query }) => infoChangeInit(db, query.compCode),
    );
    api.post(
      p(COMP_CHANGE_PATHS.view),
      { perm: menu(INFO), query: changeCodeQuery, summary: '企业信息变更单（变更前后）' },
      ({ query }) => viewInfoChange(db, query.bizCode),
    );
    api.post(
      p(COMP_CHANGE_PATHS.save),
      {
        perm: [button(INFO, 'add'), button(INFO, 'save')],
        body: infoChangeSaveSchema,
        summary: '保存（并提交）企业信息变更单',
      },
      ({ body, actor }) =>
        db
          .transaction(async (tx) => {
            if (body.bizCode) {
              await findInfoChange(tx, body.bizCode);
              await assertEditable(tx, INFO_TYPE, body.bizCode);
            }
            return saveInfoChange(tx, body, actor);
          })
          .catch(openIndexConflict),
    );
    api.post(
      p(COMP_CHANGE_PATHS.del),
      { perm: button(INFO, 'delete'), query: changeCodeQuery, summary: '删除企业信息变更单' },
      ({ query, actor }) =>
        db.transaction(async (tx) => {
          await assertDeletable(tx, INFO_TYPE, query.bizCode);
          await deleteInfoChange(tx, query.bizCode, actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: INFO_TYPE,
      audit: { path: p(COMP_CHANGE_PATHS.audit), perm: button(INFO, 'audit') },
      unAudit: { path: p(COMP_CHANGE_PATHS.unAudit), perm: button(INFO, 'unAudit') },
    });
    api.post(
      p(COMP_CHANGE_PATHS.history),
      {
        perm: [menu(INFO), menu(MG), menu('crm-cor-cor-v')],
        body: companyHistoryListSchema,
        summary: '企业变更历史（被替换的旧值）',
      },
      ({ body }) => companyHistoryOf(db, body),
    );

    // ----- 管理员变更 -----
    api.post(
      p(COMP_MANAGER_PATHS.list),
      { perm: menu(MG), body: managerChangeListSchema, summary: '管理员变更单列表' },
      ({ body }) => listManagerChanges(db, body),
    );
    api.post(
      p(COMP_MANAGER_PATHS.init),
      {
        perm: [button(MG, 'add'), button(MG, 'save')],
        query: changeCompQuery,
        summary: '新管理员变更单：当前管理员与企业用户',
      },
      ({ query }) => managerChangeInit(db, query.compCode),
    );
    api.post(
      p(COMP_MANAGER_PATHS.users),
      {
        perm: [button(MG, 'add'), button(MG, 'save')],
        body: managerCandidateListSchema,
        summary: '可选为新管理员的企业用户（分页搜索）',
      },
      ({ body }) => listManagerCandidates(db, body),
    );
    api.post(
      p(COMP_MANAGER_PATHS.view),
      { perm: menu(MG), query: changeCodeQuery, summary: '管理员变更单' },
      ({ query }) => viewManagerChange(db, query.bizCode),
    );
    api.post(
      p(COMP_MANAGER_PATHS.save),
      {
        perm: [button(MG, 'add'), button(MG, 'save')],
        body: managerChangeSaveSchema,
        summary: '保存（并提交）管理员变更单',
      },
      ({ body, actor }) =>
        db.transaction(async (tx) => {
          if (body.bizCode) {
            await findManagerChange(tx, body.bizCode);
            await assertEditable(tx, MANAGER_TYPE, body.bizCode);
          }
          return saveManagerChange(tx, body, actor);
        }),
    );
    api.post(
      p(COMP_MANAGER_PATHS.del),
      { perm: button(MG, 'delete'), query: changeCodeQuery, summary: '删除管理员变更单' },
      ({ query, actor }) =>
        db.transaction(async (tx) => {
          await assertDeletable(tx, MANAGER_TYPE, query.bizCode);
          await deleteManagerChange(tx, query.bizCode, actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: MANAGER_TYPE,
      audit: { path: p(COMP_MANAGER_PATHS.audit), perm: button(MG, 'audit') },
      unAudit: { path: p(COMP_MANAGER_PATHS.unAudit), perm: button(MG, 'unAudit') },
    });
  },
  demo: seedDemoManager,
};
