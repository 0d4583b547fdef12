import {
  changeCodeQuery,
  changeListSchema,
  changeSaveSchema,
  CONTRACT_PATHS,
} from '@portal/contract/contract';
import { button, menu } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { listOf } from '../../platform/http/route-scope';
import { registerDocument, type WorkflowRegistry } from '../workflow';
import {
  applyChange,
  beforeAfter,
  changeView,
  deleteChange,
  findChange,
  listChanges,
  saveChange,
} from './change';
import { CHG } from './route-perms';

/** 合同变更: the change as a workflow document, its list and its before/after views. */
export function registerChangeRoutes({ api, db, clock }: ModuleContext, workflow: WorkflowRegistry): void {
  registerDocument(api, db, workflow, {
    type: 'contractChange',
    table: 'contract_changes',
    stamps: true,
    hooks: { onApprove: (tx, doc, actor) => applyChange(tx, doc.code, actor, clock.today()) },
    codeParam: 'bizCode',
    scope: [{ kind: 'contract', params: ['contBizCode'] }],
    view: {
      path: CONTRACT_PATHS.changeView,
      perm: menu(CHG),
      read: async (ex, code, user) => {
        const { change, contract } = await findChange(ex, code, user);
        return changeView(change, contract);
      },
    },
    save: {
      path: CONTRACT_PATHS.changeSave,
      perm: [button(CHG, 'add'), button(CHG, 'save')],
      body: changeSaveSchema,
      write: async (tx, body, { actor, user }) =>
        (await saveChange(tx, body, actor, clock.today(), user)).code,
      find: async (ex, code) => {
        const { change, contract } = await findChange(ex, code);
        return { ...change, contract };
      },
      submission: async (_tx, { contract }, body) => ({
        subject: `合同变更 ${contract.contractNo} ${contract.custName}`,
        amount: body.info.financingAmount ?? contract.financingAmount,
      }),
    },
    remove: {
      path: CONTRACT_PATHS.changeDelete,
      perm: button(CHG, 'delete'),
      query: changeCodeQuery,
      remove: async (tx, code, actor) => deleteChange(tx, (await findChange(tx, code)).change, actor),
    },
    audit: { path: CONTRACT_PATHS.changeAudit, perm: button(CHG, 'audit') },
    unAudit: { path: CONTRACT_PATHS.changeUnAudit, perm: button(CHG, 'unAudit') },
  });
  api.post(
    CONTRACT_PATHS.changeList,
    { perm: menu(CHG), scope: listOf('contractChange'), body: changeListSchema },
    ({ body, user }) => listChanges(db, body, user),
  );
  const chgView = <K extends 'info' | 'plan' | 'dues' | 'business' | 'fileTokens' | 'payers' | 'receivables'>(
    path: string,
    section: K,
  ) =>
    api.post(
      path,
      { perm: menu(CHG), scope: 'contractChange', query: changeCodeQuery },
      async ({ query, user }) => {
        const { change, contract } = await findChange(db, query.bizCode, user);
        return beforeAfter(db, change, contract, section, clock.today());
      },
    );
  chgView(CONTRACT_PATHS.chgInfoView, 'info');
  chgView(CONTRACT_PATHS.chgSchemeView, 'plan');
  chgView(CONTRACT_PATHS.chgDueView, 'dues');
  chgView(CONTRACT_PATHS.chgBusinessView, 'business');
  chgView(CONTRACT_PATHS.chgFileView, 'fileTokens');
  chgView(CONTRACT_PATHS.chgPayerInfo, 'payers');
}
