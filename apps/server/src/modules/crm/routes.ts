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
  firmCheckSchema,
  firmListSchema,
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
import { CRM_SCOPE_KINDS } from './scope-kinds';
import { permAllows } from '../../platform/http/route';
import { noPermission } from '../../platform/errors';
import { COMPANY_USAGE, customerScope } from '../company';
import { BANK_ACCOUNT_USAGE } from '../bank';
import { crmCompanyUsage } from './common';
import { checkRegistration, listUsers, saveUser, setUserState, viewUser } from './users';
import { deleteRole, listRoles, saveRole } from './roles';
import { addDept, deleteDept, deptTree, updateDept } from './depts';
import { listBankUsers, saveBankUsers } from './bank-users';
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

import { listOf, type ScopedRows } from '../../platform/http/route-scope';
import { compRelations, compUsers } from './schema';

/** The customer a CRM tab shows or edits, named by compCode. */
const OF_CUSTOMER: ScopedRows = { kind: 'customer', params: ['compCode'] };
/** A department's parent, when one is chosen. */
const PARENT_DEPT: ScopedRows = { kind: 'compDept', params: ['parentDeptCode'] };

const EDIT = 'crm-cor-cor-e';
const VIEW = 'crm-cor-cor-v';
const BANK = 'crm-cor-bank';
const ORG = 'crm-cor-org';
const REL = 'crm-cor-rel';
const FIRM = 'crm-frim';

export const crmModule: PortalModule = {
  name: 'crm',
  scopeKinds: CRM_SCOPE_KINDS,
  register({ api, registries, db, clock }) {
    registries.get(COMPANY_USAGE).add(crmCompanyUsage);
    const readers = [menu(EDIT), menu(VIEW)];
    const save = button(EDIT, 'save');

    // ---- 企业编辑 / 查看 tabs
    api.post(
      CRM_PATHS.employeeList,
      { perm: readers, scope: OF_CUSTOMER, body: employeeListSchema },
      ({ body, user }) => listUsers(db, body, customerScope(user, compUsers.compCode)),
    );
    api.post(
      CRM_PATHS.employeeSave,
      { perm: save, scope: [OF_CUSTOMER, 'compUser'], body: employeeSaveSchema },
      ({ body, actor }) => saveUser(db, body, actor),
    );
    for (const [path, state] of [
      [CRM_PATHS.employeeEnable, 'enabled'],
      [CRM_PATHS.employeeDisable, 'disabled'],
    ] as const) {
      api.post(path, { perm: save, scope: 'compUser', query: userCodeQuery }, async ({ query, actor }) => {
        await setUserState(db, query.userCode, state, actor);
        return null;
      });
    }
    api.post(CRM_PATHS.roleList, { perm: readers, scope: OF_CUSTOMER, body: roleListSchema }, ({ body }) =>
      listRoles(db, body),
    );
    api.post(
      CRM_PATHS.roleSave,
      { perm: save, scope: [OF_CUSTOMER, 'compRole'], body: roleSaveSchema },
      ({ body, actor }) => saveRole(db, body, actor),
    );
    api.post(
      CRM_PATHS.roleDel,
      { perm: save, scope: 'compRole', query: roleCodeQuery, body: deleteVersionBody },
      async ({ query, body, actor }) => {
        await deleteRole(db, query.roleCode, body.version, actor);
        return null;
      },
    );
    api.post(CRM_PATHS.billView, { perm: readers, scope: OF_CUSTOMER, query: compCodeQuery }, ({ query }) =>
      viewBill(db, query.compCode),
    );
    api.post(
      CRM_PATHS.billSave,
      { perm: save, scope: OF_CUSTOMER, body: billSaveSchema },
      ({ body, actor }) => saveBill(db, body, actor),
    );
    api.post(CRM_PATHS.desView, { perm: readers, scope: OF_CUSTOMER, query: compCodeQuery }, ({ query }) =>
      viewDes(db, query.compCode),
    );
    api.post(CRM_PATHS.desSave, { perm: save, scope: OF_CUSTOMER, body: desSaveSchema }, ({ body, actor }) =>
      saveDes(db, body, actor),
    );
    api.post(CRM_PATHS.addView, { perm: readers, scope: OF_CUSTOMER, query: compCodeQuery }, ({ query }) =>
      viewAdd(db, query.compCode),
    );
    api.post(CRM_PATHS.addSave, { perm: save, scope: OF_CUSTOMER, body: addSaveSchema }, ({ body, actor }) =>
      saveAdd(db, body, actor),
    );
    api.post(
      CRM_PATHS.accountList,
      { perm: readers, scope: OF_CUSTOMER, body: accountListSchema },
      ({ body }) => listCustomerAccounts(db, body),
    );
    api.post(
      CRM_PATHS.accountSave,
      { perm: save, scope: [OF_CUSTOMER, 'bankAccount'], body: accountSaveSchema },
      ({ body, actor }) => saveCustomerAccount(db, body, actor),
    );
    api.post(
      CRM_PATHS.accountDel,
      { perm: save, scope: [OF_CUSTOMER, 'bankAccount'], query: accountCodeQuery },
      async ({ query, actor }) => {
        await deleteCustomerAccount(
          db,
          query.compCode,
          query.bizCode,
          actor,
          registries.get(BANK_ACCOUNT_USAGE),
        );
        return null;
      },
    );
    api.post(
      CRM_PATHS.accountSetDefault,
      { perm: save, scope: [OF_CUSTOMER, 'bankAccount'], query: accountCodeQuery },
      async ({ query, actor }) => {
        await setCustomerDefaultAccount(db, query.compCode, query.bizCode, actor);
        return null;
      },
    );
    api.post(CRM_PATHS.fileList, { perm: readers, scope: OF_CUSTOMER, query: compCodeQuery }, ({ query }) =>
      customerFiles(db, query.compCode),
    );
    api.post(
      CRM_PATHS.fileSave,
      { perm: save, scope: OF_CUSTOMER, body: fileSaveSchema },
      ({ body, actor }) => saveCustomerFiles(db, body.compCode, body.fileTokens, actor),
    );
    api.post(
      CRM_PATHS.approvalList,
      { perm: menu(VIEW), scope: OF_CUSTOMER, body: approvalListSchema },
      ({ body }) => customerHistory(db, body),
    );

    // ---- 银行信息管理: operators of a customer account
    api.post(
      CRM_PATHS.bankUserList,
      { perm: menu(BANK), scope: 'bankAccount', query: accountBizCodeQuery },
      ({ query }) => listBankUsers(db, query.bizCode),
    );
    api.post(
      CRM_PATHS.bankUserSave,
      { perm: button(BANK, 'save'), scope: 'bankAccount', body: bankUserSaveSchema },
      async ({ body, actor }) => {
        await saveBankUsers(db, body.bizCode, body.userCodes, actor);
        return null;
      },
    );

    // ---- 组织架构 (the employee tab's department picker reads the tree too)
    api.post(
      CRM_PATHS.orgTree,
      { perm: [menu(ORG), menu(EDIT), menu(VIEW)], scope: OF_CUSTOMER, query: compCodeQuery },
      ({ query }) => deptTree(db, query.compCode),
    );
    api.post(
      CRM_PATHS.orgAdd,
      { perm: button(ORG, 'add'), scope: [OF_CUSTOMER, PARENT_DEPT], body: orgAddSchema },
      ({ body, actor }) => addDept(db, body, actor),
    );
    api.post(
      CRM_PATHS.orgUpdate,
      { perm: button(ORG, 'update'), scope: ['compDept', PARENT_DEPT], body: orgUpdateSchema },
      ({ body, actor }) => updateDept(db, body, actor),
    );
    api.post(
      CRM_PATHS.orgDel,
      { perm: button(ORG, 'delete'), scope: 'compDept', query: deptCodeQuery },
      async ({ query, actor }) => {
        await deleteDept(db, query.deptCode, actor);
        return null;
      },
    );

    // ---- 企业关系维护
    api.post(
      CRM_PATHS.relationList,
      { perm: menu(REL), scope: listOf('compRelation'), body: relationListSchema },
      ({ body, user }) =>
        listRelations(db, body, clock.today(), customerScope(user, compRelations.coreCompCode)),
    );
    api.post(
      CRM_PATHS.relationGraph,
      { perm: menu(REL), scope: listOf('compRelation'), body: relationGraphSchema },
      ({ body, user }) =>
        relationGraph(db, body, clock.today(), customerScope(user, compRelations.coreCompCode)),
    );
    api.post(
      CRM_PATHS.relationSave,
      {
        perm: [button(REL, 'add'), button(REL, 'update')],
        // The relation, and the core enterprise it is kept under: the related one may be anyone's.
        scope: ['compRelation', { kind: 'customer', params: ['coreCompCode'] }],
        body: relationSaveSchema,
      },
      ({ body, user, actor }) => {
        // A new relation needs 新增, a change needs 修改.
        if (permAllows(button(REL, body.bizCode ? 'update' : 'add'), user) !== 'ok') throw noPermission();
        return saveRelation(db, body, actor);
      },
    );
    api.post(
      CRM_PATHS.relationDel,
      {
        perm: button(REL, 'delete'),
        scope: 'compRelation',
        query: relationCodeQuery,
        body: deleteVersionBody,
      },
      async ({ query, body, actor }) => {
        await deleteRelation(db, query.bizCode, body.version, actor);
        return null;
      },
    );

    // ---- 企业用户 (/crm/frim)
    api.post(
      CRM_PATHS.firmList,
      { perm: menu(FIRM), scope: listOf('compUser'), body: firmListSchema },
      ({ body, user }) => listUsers(db, body, customerScope(user, compUsers.compCode)),
    );
    api.post(CRM_PATHS.firmView, { perm: menu(FIRM), scope: 'compUser', query: userCodeQuery }, ({ query }) =>
      viewUser(db, query.userCode),
    );
    api.post(
      CRM_PATHS.firmAudit,
      { perm: button(FIRM, 'audit'), scope: 'compUser', query: userCodeQuery, body: firmCheckSchema },
      async ({ query, body, actor }) => {
        await checkRegistration(db, query.userCode, true, body.comment, actor);
        return null;
      },
    );
    api.post(
      CRM_PATHS.firmUnAudit,
      { perm: button(FIRM, 'unAudit'), scope: 'compUser', query: userCodeQuery, body: firmCheckSchema },
      async ({ query, body, actor }) => {
        await checkRegistration(db, query.userCode, false, body.comment, actor);
        return null;
      },
    );
    api.post(
      CRM_PATHS.firmEnable,
      { perm: button(FIRM, 'enable'), scope: 'compUser', query: userCodeQuery },
      async ({ query, actor }) => {
        await setUserState(db, query.userCode, 'enabled', actor);
        return null;
      },
    );
    api.post(
      CRM_PATHS.firmDisable,
      { perm: button(FIRM, 'disable'), scope: 'compUser', query: userCodeQuery },
      async ({ query, actor }) => {
        await setUserState(db, query.userCode, 'disabled', actor);
        return null;
      },
    );
  },
  demo: seedDemoCrm,
};
