import {
  CONTRACT_DICT,
  CONTRACT_PATHS,
  contractCodeQuery,
  contractListSchema,
  infoSaveSchema,
} from '@portal/contract/contract';
import { button, menu } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { badInput } from '../../platform/errors';
import { KeysetPages } from '../../platform/http/list';
import { streamListExport } from '../../platform/http/export';
import { listOf, UNSCOPED } from '../../platform/http/route-scope';
import { registerDocument, type WorkflowRegistry } from '../workflow';
import { findContract, listContracts, viewInfo } from './queries';
import { deleteInfo, writeInfo } from './service';
import { activeItems, planProblem, upfrontProblem } from './plan';
import { approveContract } from './approval';
import { contractExport } from './export';
import { CHG, EDITORS, INFO, READERS } from './route-perms';

/** 合同信息: the dictionaries, the list and its export, and the contract as a workflow document. */
export function registerInfoRoutes({ api, db, clock }: ModuleContext, workflow: WorkflowRegistry): void {
  const listPages = new KeysetPages();
  const dict = async () => CONTRACT_DICT;
  for (const path of [
    CONTRACT_PATHS.dict,
    CONTRACT_PATHS.listDict,
    CONTRACT_PATHS.infoDict,
    CONTRACT_PATHS.scheDict,
    CONTRACT_PATHS.dueDict,
    CONTRACT_PATHS.businessDict,
  ])
    api.post(path, { perm: READERS, scope: UNSCOPED.reference }, dict);
  api.post(CONTRACT_PATHS.chgDict, { perm: menu(CHG), scope: UNSCOPED.reference }, dict);

  api.post(
    CONTRACT_PATHS.list,
    { perm: menu(INFO), scope: listOf('contract'), body: contractListSchema },
    ({ body, user }) => listContracts(db, body, user, clock.today(), listPages),
  );
  api.post(
    CONTRACT_PATHS.listExport,
    {
      perm: button(INFO, 'export'),
      scope: listOf('contract'),
      body: contractListSchema,
      raw: true,
      summary: '合同信息.xlsx',
    },
    async ({ body, user, reply }) => {
      const today = clock.today();
      // Its own keyset memory: each batch continues from the last row of the one before.
      const walk = new KeysetPages(1);
      return streamListExport(
        reply,
        contractExport(
          async (pageNum, pageSize) =>
            (await listContracts(db, { ...body, pageNum, pageSize }, user, today, walk)).list,
        ),
      );
    },
  );
  registerDocument(api, db, workflow, {
    type: 'contract',
    table: 'contracts',
    stamps: true,
    hooks: { onApprove: (tx, doc, actor) => approveContract(tx, doc.code, actor, clock.today()) },
    codeParam: 'bizCode',
    view: {
      path: CONTRACT_PATHS.infoView,
      perm: READERS,
      read: async (ex, code, user) => viewInfo(ex, await findContract(ex, code, user)),
    },
    save: {
      path: CONTRACT_PATHS.infoSave,
      perm: EDITORS,
      body: infoSaveSchema,
      write: (tx, body, { actor }) => writeInfo(tx, body, actor, clock.today()),
      find: (ex, code) => findContract(ex, code),
      submission: async (tx, row) => {
        const problem = planProblem(row, await activeItems(tx, row.id)) ?? (await upfrontProblem(tx, row));
        if (problem) throw badInput(problem);
        return { subject: `合同 ${row.contractNo} ${row.custName}`, amount: row.financingAmount };
      },
    },
    remove: {
      path: CONTRACT_PATHS.infoDelete,
      perm: button(INFO, 'delete'),
      query: contractCodeQuery,
      remove: async (tx, code, actor) => deleteInfo(tx, await findContract(tx, code), actor),
    },
    audit: { path: CONTRACT_PATHS.infoAudit, perm: button(INFO, 'audit') },
    unAudit: { path: CONTRACT_PATHS.infoUnAudit, perm: button(INFO, 'unAudit') },
  });
}
