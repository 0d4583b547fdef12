import { button, menu } from '@portal/contract/menus';
import {
  LOAN_MENU,
  LOAN_PATHS,
  loanContQuery,
  loanDraftQuery,
  loanListSchema,
  loanQuery,
  loanRedQuery,
  loanRedSchema,
  loanSaveSchema,
} from '@portal/contract/loan';
import { CONTRACT_PATHS, contractCodeQuery } from '@portal/contract/contract';
import type { PortalModule } from '../../platform/module';
import { LOAN_SCOPE_KINDS } from './scope-kinds';
import { findContract } from '../contract';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import { listOf } from '../../platform/http/route-scope';
import { streamListExport } from '../../platform/http/export';
import { contracts } from '../contract/schema';
import { eq } from 'drizzle-orm';
import { seedDemoLoans } from './demo';
import { loanExport } from './export';
import { findLoan, listLoans, viewLoan, viewLoanRed } from './queries';
import {
  deleteLoan,
  loanInit,
  loanSubmission,
  planPreview,
  postLoan,
  deleteLoanRed,
  postLoanRed,
  requestLoanRed,
  saveLoan,
} from './service';

/** 放款单 (docs/money-lifecycle.md): the disbursement of a contract, a document like the others. */
export const loanModule: PortalModule = {
  name: 'loan',
  scopeKinds: LOAN_SCOPE_KINDS,
  demo: seedDemoLoans,
  register({ api, registries, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const editors = [button(LOAN_MENU, 'add'), button(LOAN_MENU, 'save')];
    // The checker decides on the plan approval keeps: readers of the screen and its approvers see it.
    const readers = [menu(LOAN_MENU)];

    api.post(
      LOAN_PATHS.list,
      { perm: readers, scope: listOf('loan'), body: loanListSchema },
      ({ body, user }) => listLoans(db, body, user),
    );
    api.post(
      LOAN_PATHS.listExport,
      {
        perm: button(LOAN_MENU, 'export'),
        scope: listOf('loan'),
        body: loanListSchema,
        raw: true,
        summary: '放款单明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          loanExport(
            async (pageNum, pageSize) => (await listLoans(db, { ...body, pageNum, pageSize }, user)).list,
          ),
        ),
    );
    api.post(
      LOAN_PATHS.initBase,
      { perm: [...editors, button('ft-contract-info', 'isLoan')], scope: 'contract', query: loanContQuery },
      async ({ query, user }) => loanInit(db, await findContract(db, query.contBizCode, user), clock.today()),
    );
    // The contract list's 放款 (loan initialisation): the same prefill, under the contract's button.
    api.post(
      CONTRACT_PATHS.isLoan,
      { perm: button('ft-contract-info', 'isLoan'), scope: 'contract', query: contractCodeQuery },
      async ({ query, user }) => loanInit(db, await findContract(db, query.bizCode, user), clock.today()),
    );
    api.post(
      LOAN_PATHS.planPreview,
      { perm: readers, scope: 'loan', query: loanQuery },
      async ({ query, user }) => {
        const loan = await findLoan(db, query.loanBizCode, user);
        const [c] = await db
          .select({ code: contracts.bizCode })
          .from(contracts)
          .where(eq(contracts.id, loan.contractId));
        return planPreview(db, await findContract(db, c!.code), loan.valueDate, clock.today());
      },
    );
    api.post(
      LOAN_PATHS.planDraft,
      { perm: editors, scope: 'contract', query: loanDraftQuery },
      async ({ query, user }) =>
        planPreview(db, await findContract(db, query.contBizCode, user), query.valueDate, clock.today()),
    );
    registerDocument(api, db, workflow, {
      type: 'loan',
      table: 'loans',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postLoan(tx, doc.code, actor, clock.today()) },
      codeParam: 'loanBizCode',
      scope: [{ kind: 'contract', params: ['contBizCode'] }],
      view: { path: LOAN_PATHS.viewBaseInfo, perm: readers, read: viewLoan },
      save: {
        path: LOAN_PATHS.saveBaseInfo,
        perm: editors,
        body: loanSaveSchema,
        write: (tx, body, { actor, user }) => saveLoan(tx, body, actor, user, clock.today()),
        find: findLoan,
        submission: loanSubmission,
      },
      remove: {
        path: LOAN_PATHS.deleteInfo,
        perm: button(LOAN_MENU, 'delete'),
        query: loanQuery,
        remove: async (tx, code, actor) => deleteLoan(tx, await findLoan(tx, code), actor),
      },
      audit: { path: LOAN_PATHS.audit, perm: button(LOAN_MENU, 'audit') },
      unAudit: { path: LOAN_PATHS.unAudit, perm: button(LOAN_MENU, 'unAudit') },
    });
    api.post(
      LOAN_PATHS.rushRed,
      { perm: button(LOAN_MENU, 'rushRed'), scope: 'loan', query: loanQuery, body: loanRedSchema },
      ({ query, body, actor, user }) =>
        db.transaction(async (tx) => ({
          loanRedBizCode: await requestLoanRed(tx, workflow, query.loanBizCode, body.reason, actor, user),
        })),
    );

    // ---- 放款单冲红 entries: approved by the 放款单's checkers (docs/money-lifecycle.md "冲红").
    registerDocument(api, db, workflow, {
      type: 'loanRed',
      table: 'loan_reds',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => postLoanRed(tx, doc.code, actor, clock.today()) },
      codeParam: 'loanRedBizCode',
      view: { path: LOAN_PATHS.redView, perm: readers, read: viewLoanRed },
      remove: {
        path: LOAN_PATHS.redDelete,
        perm: button(LOAN_MENU, 'rushRed'),
        query: loanRedQuery,
        remove: deleteLoanRed,
      },
      audit: { path: LOAN_PATHS.redAudit, perm: button(LOAN_MENU, 'audit') },
      unAudit: { path: LOAN_PATHS.redUnAudit, perm: button(LOAN_MENU, 'unAudit') },
    });
  },
};
