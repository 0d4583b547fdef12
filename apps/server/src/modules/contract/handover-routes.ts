import {
  contBizCodeQuery,
  contractPickSchema,
  HANDOVER_PATHS,
  handoverCodeQuery,
  handoverListSchema,
  handoverSaveSchema,
  handoverViewQuery,
} from '@portal/contract/contract';
import { button, menu } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { listOf } from '../../platform/http/route-scope';
import { registerDocument, type WorkflowRegistry } from '../workflow';
import { findContract, pickContracts } from './queries';
import {
  deleteHandover,
  findHandover,
  handoverInit,
  listHandovers,
  saveHandover,
  viewHandover,
} from './handover';
import { HO } from './route-perms';

/** 资料交接单: its list, the contracts it may name, and the sheet as a workflow document. */
export function registerHandoverRoutes({ api, db, clock }: ModuleContext, workflow: WorkflowRegistry): void {
  api.post(
    HANDOVER_PATHS.list,
    { perm: menu(HO), scope: listOf('handover'), body: handoverListSchema },
    ({ body, user }) => listHandovers(db, body, user),
  );
  api.post(
    HANDOVER_PATHS.init,
    { perm: [button(HO, 'add'), button(HO, 'save')], scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) =>
      handoverInit(db, await findContract(db, query.contBizCode, user), clock.today()),
  );
  api.post(
    HANDOVER_PATHS.contracts,
    { perm: [button(HO, 'add'), button(HO, 'save')], scope: listOf('contract'), body: contractPickSchema },
    ({ body, user }) => pickContracts(db, body.keyword, user),
  );
  registerDocument(api, db, workflow, {
    type: 'handover',
    table: 'handovers',
    stamps: true,
    codeParam: 'bizCode',
    scope: [{ kind: 'contract', params: ['contBizCode'] }],
    view: {
      path: HANDOVER_PATHS.view,
      perm: menu(HO),
      query: handoverViewQuery,
      read: (ex, code, user, query) => viewHandover(ex, code, user, query),
    },
    save: {
      path: HANDOVER_PATHS.save,
      perm: [button(HO, 'add'), button(HO, 'save')],
      body: handoverSaveSchema,
      write: async (tx, body, { actor, user }) =>
        (await saveHandover(tx, body, actor, user, clock.today())).code,
      find: async (ex, code) => {
        const { h, contract } = await findHandover(ex, code);
        return { ...h, contract };
      },
      submission: async (_tx, { contract }) => ({
        subject: `资料交接单 ${contract.contractNo} ${contract.custName}`,
      }),
    },
    remove: {
      path: HANDOVER_PATHS.del,
      perm: button(HO, 'delete'),
      query: handoverCodeQuery,
      remove: async (tx, code, actor) => deleteHandover(tx, (await findHandover(tx, code)).h, actor),
    },
    audit: { path: HANDOVER_PATHS.audit, perm: button(HO, 'audit') },
    unAudit: { path: HANDOVER_PATHS.unAudit, perm: button(HO, 'unAudit') },
  });
}
