import {
  accountCodeQuery,
  accountListSchema,
  accountSaveSchema,
  addSaveSchema,
  approvalListSchema,
  billSaveSchema,
  compCodeQuery,
  CRM_PATHS,
  accountBizCodeQuery,
  deleteVersionBody,
  relationCodeQuery,
  deptCodeQuery,
  desSaveSchema,
  employeeListSchema,
  employeeSaveSchema,
  fileSaveSchema,
  frimCheckSchema,
  frimListSchema,
  orgAddSchema,
  orgUpdateSchema,
  relationGraphSchema,
  relationListSchema,
  relationSaveSchema,
  roleCodeQuery,
  roleListSchema,
  roleSaveSchema,
  userCodeQuery,
  bankUserSaveSchema,
} from '@portal/contract/crm';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { permAllows } from '../../platform/http/route';
import { noPermission } from '../../platform/errors';
import { registerCompanyUsageCheck } from '../company/service';
import {
  addDept,
  checkRegistration,
  crmCompanyUsage,
  deleteDept,
  deleteRole,
  deptTree,
  listBankUsers,
  listRoles,
  listUsers,
  saveBankUsers,
  saveRole,
  saveUser,
  setUserState,
  updateDept,
  viewUser,
} from './service';
import {
  customerFiles,
  customerHistory,
  deleteCustomerAccount,
  listCustomerAccounts,
  saveAdd,
  saveBill,
  saveCustomerAccount,
  saveCustomerFiles,
  saveDes,
  setCustomerDefaultAccount,
  viewAdd,
  viewBill,
  viewDes,
} from './profile';
import { deleteRelation, listRelations, relationGraph, saveRelation } from './relations';
import { seedDemoCrm } from './demo';

const p = (path: string) => `/api${path}`;
const EDIT = 'crm-cor-cor-e';
const VIEW = 'crm-cor-cor-v';
const BANK = 'crm-cor-bank';
const ORG = 'crm-cor-org';
const REL = 'crm-cor-rel';
const FRIM = 'crm-frim';

export const crmModule: PortalModule = {
  name: 'crm',
  register({ api, db, clock }) {
    registerCompanyUsageCheck(crmCompanyUsage);
    const readers = [menu(EDIT), menu(VIEW)];
    const save = button(EDIT, 'save');

    // ---- 企业编辑 / 查看 tabs
    api.post(p(CRM_PATHS.employeeList), { perm: readers, body: employeeListSchema }, ({ body }) =>
      listUsers(db, body),
    );
    api.post(p(CRM_PATHS.employeeSave), { perm: save, body: employeeSaveSchema }, ({ body, actor }) =>
      saveUser(db, body, actor),
    );
    api.post(p(CRM_PATHS.employeeEnable), { perm: save, query: userCodeQuery }, async ({ query, actor }) => {
      await setUserState(db, query.userCode, 'enabled', actor);
      return null;
    });
    api.post(p(CRM_PATHS.employeeDisable), { perm: save, query: userCodeQuery }, async ({ query, actor }) => {
      await setUserState(db, query.userCode, 'disabled', actor);
      return null;
    });
    api.post(p(CRM_PATHS.roleList), { perm: readers, body: roleListSchema }, ({ body }) =>
      listRoles(db, body),
    );
    api.post(p(CRM_PATHS.roleSave), { perm: save, body: roleSaveSchema }, ({ body, actor }) =>
      saveRole(db, body, actor),
    );
    api.post(
      p(CRM_PATHS.roleDel),
      { perm: save, query: roleCodeQuery, body: deleteVersionBody },
      async ({ query, body, actor }) => {
        await deleteRole(db, query.roleCode, body.version, actor);
        return null;
      },
    );
    api.post(p(CRM_PATHS.billView), { perm: readers, query: compCodeQuery }, ({ query }) =>
      viewBill(db, query.compCode),
    );
    api.post(p(CRM_PATHS.billSave), { perm: save, body: billSaveSchema }, ({ body, actor }) =>
      saveBill(db, body, actor),
    );
    api.post(p(CRM_PATHS.desView), { perm: readers, query: compCodeQuery }, ({ query }) =>
      viewDes(db, query.compCode),
    );
    api.post(p(CRM_PATHS.desSave), { perm: save, body: desSaveSchema }, ({ body, actor }) =>
      saveDes(db, body, actor),
    );
    api.post(p(CRM_PATHS.addView), { perm: readers, query: compCodeQuery }, ({ query }) =>
      viewAdd(db, query.compCode),
    );
    api.post(p(CRM_PATHS.addSave), { perm: save, body: addSaveSchema }, ({ body, actor }) =>
      saveAdd(db, body, actor),
    );
    api.post(p(CRM_PATHS.accountList), { perm: readers, body: accountListSchema }, ({ body }) =>
      listCustomerAccounts(db, body),
    );
    api.post(p(CRM_PATHS.accountSave), { perm: save, body: accountSaveSchema }, ({ body, actor }) =>
      saveCustomerAccount(db, body, actor),
    );
    api.post(p(CRM_PATHS.accountDel), { perm: save, query: accountCodeQuery }, async ({ query, actor }) => {
      await deleteCustomerAccount(db, query.compCode, query.bizCode, actor);
      return null;
    });
    api.post(
      p(CRM_PATHS.accountSetDefault),
      { perm: save, query: accountCodeQuery },
      async ({ query, actor }) => {
        await setCustomerDefaultAccount(db, query.compCode, query.bizCode, actor);
        return null;
      },
    );
    api.post(p(CRM_PATHS.fileList), { perm: readers, query: compCodeQuery }, ({ query }) =>
      customerFiles(db, query.compCode),
    );
    api.post(p(CRM_PATHS.fileSave), { perm: save, body: fileSaveSchema }, ({ body, actor }) =>
      saveCustomerFiles(db, body.compCode, body.fileTokens, actor),
    );
    api.post(p(CRM_PATHS.approvalList), { perm: menu(VIEW), body: approvalListSchema }, ({ body }) =>
      customerHistory(db, body),
    );

    // ---- 银行信息管理: operators of a customer account
    api.post(p(CRM_PATHS.bankUserList), { perm: menu(BANK), query: accountBizCodeQuery }, ({ query }) =>
      listBankUsers(db, query.bizCode),
    );
    api.post(
      p(CRM_PATHS.bankUserSave),
      { perm: button(BANK, 'save'), body: bankUserSaveSchema },
      async ({ body, actor }) => {
        await saveBankUsers(db, body.bizCode, body.userCodes, actor);
        return null;
      },
    );

    // ---- 组织架构 (the employee tab's department picker reads the tree too)
    api.post(
      p(CRM_PATHS.orgTree),
      { perm: [menu(ORG), menu(EDIT), menu(VIEW)], query: compCodeQuery },
      ({ query }) => deptTree(db, query.compCode),
    );
    api.post(p(CRM_PATHS.orgAdd), { perm: button(ORG, 'add'), body: orgAddSchema }, ({ body, actor }) =>
      addDept(db, body, actor),
    );
    api.post(
      p(CRM_PATHS.orgUpdate),
      { perm: button(ORG, 'update'), body: orgUpdateSchema },
      ({ body, actor }) => updateDept(db, body, actor),
    );
    api.post(
      p(CRM_PATHS.orgDel),
      { perm: button(ORG, 'delete'), query: deptCodeQuery },
      async ({ query, actor }) => {
        await deleteDept(db, query.deptCode, actor);
        return null;
      },
    );

    // ---- 企业关系维护
    api.post(p(CRM_PATHS.relationList), { perm: menu(REL), body: relationListSchema }, ({ body }) =>
      listRelations(db, body, clock.today()),
    );
    api.post(p(CRM_PATHS.relationGraph), { perm: menu(REL), body: relationGraphSchema }, ({ body }) =>
      relationGraph(db, body, clock.today()),
    );
    api.post(
      p(CRM_PATHS.relationSave),
      { perm: [button(REL, 'add'), button(REL, 'update')], body: relationSaveSchema },
      ({ body, user, actor }) => {
        // A new relation needs 新增, a change needs 修改.
        if (permAllows(button(REL, body.bizCode ? 'update' : 'add'), user) !== 'ok') throw noPermission();
        return saveRelation(db, body, actor);
      },
    );
    api.post(
      p(CRM_PATHS.relationDel),
      { perm: button(REL, 'delete'), query: relationCodeQuery, body: deleteVersionBody },
      async ({ query, body, actor }) => {
        await deleteRelation(db, query.bizCode, body.version, actor);
        return null;
      },
    );

    // ---- 企业用户 (/crm/frim)
    api.post(p(CRM_PATHS.frimList), { perm: menu(FRIM), body: frimListSchema }, ({ body }) =>
      listUsers(db, body),
    );
    api.post(p(CRM_PATHS.frimView), { perm: menu(FRIM), query: userCodeQuery }, ({ query }) =>
      viewUser(db, query.userCode),
    );
    api.post(
      p(CRM_PATHS.frimAudit),
      { perm: button(FRIM, 'audit'), query: userCodeQuery, body: frimCheckSchema },
      async ({ query, body, actor }) => {
        await checkRegistration(db, query.userCode, true, body.comment, actor);
        return null;
      },
    );
    api.post(
      p(CRM_PATHS.frimUnAudit),
      { perm: button(FRIM, 'unAudit'), query: userCodeQuery, body: frimCheckSchema },
      async ({ query, body, actor }) => {
        await checkRegistration(db, query.userCode, false, body.comment, actor);
        return null;
      },
    );
    api.post(
      p(CRM_PATHS.frimEnable),
      { perm: button(FRIM, 'enable'), query: userCodeQuery },
      async ({ query, actor }) => {
        await setUserState(db, query.userCode, 'enabled', actor);
        return null;
      },
    );
    api.post(
      p(CRM_PATHS.frimDisable),
      { perm: button(FRIM, 'disable'), query: userCodeQuery },
      async ({ query, actor }) => {
        await setUserState(db, query.userCode, 'disabled', actor);
        return null;
      },
    );
  },
  demo: seedDemoCrm,
};
