import { sql } from 'drizzle-orm';
import {
  businessSaveSchema,
  contBizCodeQuery,
  CONTRACT_PATHS,
  detailCodeQuery,
  dueSaveSchema,
  fileSaveSchema,
  METHOD_LABELS,
  planAddSchema,
  schemeSaveSchema,
} from '@portal/contract/contract';
import { button, menu } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { UNSCOPED } from '../../platform/http/route-scope';
import { listFiles } from '../files';
import type { WorkflowRegistry } from '../workflow';
import { findContract } from './queries';
import { impliedDues, planPreview, viewDues, viewScheme } from './plan';
import { saveDues, saveScheme } from './plan-save';
import { CONTRACT_DOC, fileHistory, saveBusiness, saveFiles, viewBusiness } from './business-info';
import { CHG, EDITORS, READERS } from './route-perms';

/** The contract form's sections after its info: 方案, 应收费用, 业务信息, 附件. */
export function registerSectionRoutes({ api, db, clock }: ModuleContext, workflow: WorkflowRegistry): void {
  api.post(CONTRACT_PATHS.planType, { perm: READERS, scope: UNSCOPED.reference }, async () =>
    Object.entries(METHOD_LABELS).map(([code, label]) => ({ type: 'method', code, label })),
  );
  api.post(
    CONTRACT_PATHS.planAdd,
    {
      perm: [...EDITORS, button(CHG, 'save'), button(CHG, 'add')],
      scope: { kind: 'contract', params: ['contBizCode'] },
      body: planAddSchema,
    },
    async ({ body, user }) =>
      planPreview(db, body, body.contBizCode ? await findContract(db, body.contBizCode, user) : null),
  );
  api.post(
    CONTRACT_PATHS.schemeSave,
    { perm: EDITORS, scope: 'contract', body: schemeSaveSchema },
    ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        await findContract(tx, body.contBizCode, user);
        return saveScheme(tx, workflow, body, actor);
      }),
  );
  api.post(
    CONTRACT_PATHS.schemeView,
    { perm: READERS, scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) => viewScheme(db, await findContract(db, query.contBizCode, user), clock.today()),
  );
  api.post(
    CONTRACT_PATHS.due,
    { perm: EDITORS, scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) => impliedDues(await findContract(db, query.contBizCode, user)),
  );
  api.post(
    CONTRACT_PATHS.dueSave,
    { perm: EDITORS, scope: 'contract', body: dueSaveSchema },
    ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        await findContract(tx, body.contBizCode, user);
        return saveDues(tx, workflow, body, actor);
      }),
  );
  api.post(
    CONTRACT_PATHS.dueView,
    { perm: [...READERS, menu('ft-pa-mgr')], scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) => viewDues(db, await findContract(db, query.contBizCode, user)),
  );
  api.post(
    CONTRACT_PATHS.businessSave,
    { perm: EDITORS, scope: 'contract', body: businessSaveSchema },
    ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        await findContract(tx, body.contBizCode, user);
        return saveBusiness(tx, workflow, body, actor);
      }),
  );
  api.post(
    CONTRACT_PATHS.businessView,
    { perm: READERS, scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) => viewBusiness(db, await findContract(db, query.contBizCode, user)),
  );
  api.post(
    CONTRACT_PATHS.fileHistory,
    { perm: READERS, scope: 'contractDetail', query: detailCodeQuery },
    async ({ query, user }) => {
      const [d] = await queryRows<{ code: string }>(
        db,
        sql`select c.biz_code as code from contract_details d join contracts c on c.id = d.contract_id
           where d.biz_code = ${query.contractdetailCode} and c.deleted_at is null`,
      );
      if (!d) throw notFound('业务信息');
      await findContract(db, d.code, user);
      return fileHistory(db, query.contractdetailCode);
    },
  );
  api.post(
    CONTRACT_PATHS.fileSave,
    { perm: EDITORS, scope: 'contract', body: fileSaveSchema },
    ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        await findContract(tx, body.contBizCode, user);
        return saveFiles(tx, workflow, body, actor);
      }),
  );
  api.post(
    CONTRACT_PATHS.fileView,
    { perm: READERS, scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) => {
      const row = await findContract(db, query.contBizCode, user);
      return listFiles(db, CONTRACT_DOC, row.bizCode);
    },
  );
}
