import { and, asc, eq, isNull } from 'drizzle-orm';
import { DEBTOR_LINKERS } from '../debtor';
import { linkCreditDebtors } from './debtor-link';
import {
  bizCodeOnly,
  changeListSchema,
  changeSaveSchema,
  compListQuery,
  CREDIT_DICT,
  CREDIT_PATHS,
  creditListSchema,
  creditQuery,
  credFileSaveSchema,
  custFileQuery,
  distFileSaveSchema,
  distListSchema,
  distSaveSchema,
  ftSaveSchema,
  guaSaveSchema,
  invoiceVerificationSchema,
  linesQuery,
  platformSaveSchema,
  receivablesSaveSchema,
  releaseGuaranteeSchema,
  userListQuery,
  utilisationSchema,
} from '@portal/contract/credit';
import { COMP_ROLES, type CompRole } from '@portal/contract/company';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { CREDIT_SCOPE_KINDS } from './scope-kinds';
import { badInput, notFound } from '../../platform/errors';
import { readXlsxUpload } from '../../platform/xlsx';
import { users } from '../../platform/auth/schema';
import { credChanges, credDistributions, credits } from './schema';
import { companyDict, COMPANY_USAGE } from '../company';
import {
  creditHistory,
  credFiles,
  custFiles,
  getCredit,
  listCredits,
  utilisation,
  viewFt,
  viewPlatform,
  viewReceivables,
} from './queries';
import {
  applyCredit,
  creditSubmission,
  deleteCredit,
  saveCredFiles,
  saveFt,
  saveInvoiceVerification,
  savePlatform,
  saveReceivables,
  type CreditDeps,
} from './service';
import {
  applyDistribution,
  deleteDistribution,
  distFiles,
  distSubmission,
  getDist,
  listDistributions,
  saveDistFiles,
  saveDistribution,
  viewDistribution,
} from './distribution';
import {
  applyChange,
  changeSubmission,
  deleteChange,
  getChange,
  listChanges,
  saveChange,
  viewChange,
} from './change';
import { releaseGuarantee, saveGuarantees, viewCollaterals, viewGuarantees } from './guarantees';
import { guaranteeWatch } from '../../platform/params';
import { parseReceivablesXlsx, previewReceivables } from './invoices';
import { linesOfCustomer } from './ledger';
import { streamListExport } from '../../platform/http/export';
import { creditExport, creditHistoryExport } from './export';
import { customerUsage } from './usage';
import { seedDemoCredit } from './demo';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';

import { listOf, UNSCOPED, type RouteScope, type ScopedRows } from '../../platform/http/route-scope';
import { aliasScope, rowVisibility, tableScope, type ScopeKind } from '../../platform/auth/row-scope';

/** A credit's queries name the credit by bizCode (and again by credBizCode). */
const CREDIT_QUERY: RouteScope = { kind: 'credit', params: ['bizCode', 'credBizCode'] };
/** The credit a distribution or change belongs to, by credBizCode. */
const OF_CREDIT: ScopedRows = { kind: 'credit', params: ['credBizCode'] };
/** A distribution or change by bizCode, and its credit. */
const ofCredit = (kind: ScopeKind): RouteScope => [{ kind, params: ['bizCode'] }, OF_CREDIT];

const INFO = 'ft-credit-info';
const DIST = 'ft-credit-dist';
const CHG = 'ft-credit-chg';
const CONTRACT = 'ft-contract-info';

export const creditModule: PortalModule = {
  name: 'credit',
  scopeKinds: CREDIT_SCOPE_KINDS,
  register({ api, registries, db, config, clock, params }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const deps: CreditDeps = { db, config, clock, workflow };
    // The approvals of our three documents run on the workflow; their side effects are these hooks.
    const readers = [menu(INFO), menu(DIST), menu(CHG)];
    registries.get(COMPANY_USAGE).add(customerUsage);
    registries.get(DEBTOR_LINKERS).push(linkCreditDebtors);

    // Lists and dictionaries
    api.post(CREDIT_PATHS.dict, { perm: readers, scope: UNSCOPED.reference }, async () => CREDIT_DICT);
    api.post(
      CREDIT_PATHS.creditList,
      { perm: readers, scope: listOf('credit'), body: creditListSchema },
      async ({ body, user }) => listCredits(db, body, tableScope(user, credits)),
    );
    api.post(
      CREDIT_PATHS.creditListExport,
      {
        perm: button(INFO, 'export'),
        scope: listOf('credit'),
        body: creditListSchema,
        raw: true,
        summary: '授信明细.xlsx',
      },
      async ({ body, user, reply }) =>
        streamListExport(
          reply,
          creditExport(
            async (pageNum, pageSize) =>
              (await listCredits(db, { ...body, pageNum, pageSize }, tableScope(user, credits))).list,
          ),
        ),
    );
    api.post(
      CREDIT_PATHS.credDistributionList,
      { perm: menu(DIST), scope: listOf('credDistribution'), body: distListSchema },
      async ({ body, user }) => listDistributions(db, body, tableScope(user, credDistributions)),
    );
    api.post(
      CREDIT_PATHS.credChangeList,
      { perm: menu(CHG), scope: listOf('credChange'), body: changeListSchema },
      async ({ body, user }) => listChanges(db, body, tableScope(user, credChanges)),
    );

    // Queries (?bizCode and optionally &credBizCode)
    const credit =
      (fn: (code: string) => Promise<unknown>) =>
      async ({ query }: { query: { bizCode: string; credBizCode?: string | undefined } }) => {
        if (query.credBizCode && query.credBizCode !== query.bizCode) throw notFound('授信');
        return fn(query.bizCode);
      };
    api.post(
      CREDIT_PATHS.creditPlatform,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => viewPlatform(db, c)),
    );
    api.post(
      CREDIT_PATHS.creditGua,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => viewGuarantees(db, c, clock.today(), guaranteeWatch(params.current))),
    );
    api.post(
      CREDIT_PATHS.creditCollateral,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => viewCollaterals(db, c, clock.today(), guaranteeWatch(params.current))),
    );
    api.post(
      CREDIT_PATHS.creditFt,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => viewFt(db, c)),
    );
    api.post(
      CREDIT_PATHS.receivables,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => viewReceivables(db, c)),
    );
    api.post(
      CREDIT_PATHS.creditHistory,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => creditHistory(db, c)),
    );
    api.post(
      CREDIT_PATHS.creditHistoryExport,
      {
        perm: button(INFO, 'export'),
        scope: CREDIT_QUERY,
        query: creditQuery,
        raw: true,
        summary: '授信历史_<授信编号>.xlsx',
      },
      async ({ query, reply }) => {
        if (query.credBizCode && query.credBizCode !== query.bizCode) throw notFound('授信');
        const rows = await creditHistory(db, query.bizCode);
        return streamListExport(reply, creditHistoryExport(query.bizCode, rows));
      },
    );
    api.post(
      CREDIT_PATHS.credFile,
      { perm: readers, scope: CREDIT_QUERY, query: creditQuery },
      credit((c) => credFiles(db, c)),
    );
    api.post(
      CREDIT_PATHS.credDistribution,
      { perm: menu(DIST), scope: ofCredit('credDistribution'), query: creditQuery },
      async ({ query }) => viewDistribution(db, query.bizCode, query.credBizCode),
    );
    api.post(
      CREDIT_PATHS.credDistributionFile,
      { perm: menu(DIST), scope: ofCredit('credDistribution'), query: creditQuery },
      async ({ query }) => {
        if (query.credBizCode) await viewDistribution(db, query.bizCode, query.credBizCode);
        return distFiles(db, query.bizCode);
      },
    );
    api.post(
      CREDIT_PATHS.credChange,
      { perm: menu(CHG), scope: ofCredit('credChange'), query: creditQuery },
      async ({ query }) => viewChange(db, query.bizCode, query.credBizCode),
    );

    // Pickers
    api.post(
      CREDIT_PATHS.compList,
      { perm: readers, scope: UNSCOPED.picker, query: compListQuery },
      async ({ query }) => {
        const dif = query.compdif;
        if (dif !== 'all' && !(COMP_ROLES as readonly string[]).includes(dif))
          throw badInput(`企业类型取值不正确（all 或 ${COMP_ROLES.join('、')}）`);
        // all: the customers that may hold a credit, enabled and admitted (客户准入, docs/admission.md).
        return companyDict(db, dif === 'all' ? { admitted: true } : { role: dif as CompRole });
      },
    );
    // Code and name only: login names are for the permission screens (SECURITY.md).
    api.post(
      CREDIT_PATHS.userList,
      { perm: readers, scope: UNSCOPED.picker, query: userListQuery },
      async () =>
        db
          .select({ code: users.userCode, label: users.realName })
          .from(users)
          .where(and(eq(users.state, 'enabled'), isNull(users.deletedAt)))
          .orderBy(asc(users.realName))
          .limit(2000),
    );
    api.post(
      CREDIT_PATHS.custFileList,
      { perm: readers, scope: { kind: 'customer', params: ['custBizCode'] }, query: custFileQuery },
      async ({ query, user }) => custFiles(db, query.custBizCode, tableScope(user, credits)),
    );
    api.post(
      CREDIT_PATHS.utilisation,
      { perm: menu(INFO), scope: listOf('credit'), body: utilisationSchema },
      async ({ body, user }) => utilisation(db, body, aliasScope(user, 'scoped_credit')),
    );
    api.post(
      CREDIT_PATHS.lines,
      { perm: [...readers, menu(CONTRACT)], scope: listOf('credit'), query: linesQuery },
      async ({ query, user }) => linesOfCustomer(db, query.custCode, aliasScope(user, 'scoped_credit')),
    );

    // Credit record saves
    const save = button(INFO, 'save');
    registerDocument(api, db, workflow, {
      type: 'credit',
      table: 'credits',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyCredit(tx, doc.code, actor, clock.today()) },
      codeParam: 'bizCode',
      save: {
        path: CREDIT_PATHS.saveCreditPlatform,
        perm: [button(INFO, 'add'), save],
        body: platformSaveSchema,
        write: (tx, body, { actor }) => savePlatform(tx, workflow, body, actor),
        find: getCredit,
        submission: async (_tx, c) => creditSubmission(c),
      },
      remove: {
        path: CREDIT_PATHS.deleteCreditPlatform,
        perm: button(INFO, 'delete'),
        query: bizCodeOnly,
        remove: deleteCredit,
      },
      audit: { path: CREDIT_PATHS.passCredit, perm: button(INFO, 'pass') },
      unAudit: { path: CREDIT_PATHS.rejectCredit, perm: button(INFO, 'reject') },
    });
    api.post(
      CREDIT_PATHS.saveCreditGua,
      { perm: save, scope: 'credit', body: guaSaveSchema },
      async ({ body, actor }) => db.transaction((tx) => saveGuarantees(tx, workflow, body, actor)),
    );
    // 解除担保: a risk decision on a credit in approval or approved, by those who approve credits.
    api.post(
      CREDIT_PATHS.releaseGuarantee,
      { perm: button(INFO, 'pass'), scope: 'credit', body: releaseGuaranteeSchema },
      async ({ body, actor }) => db.transaction((tx) => releaseGuarantee(tx, body, clock.today(), actor)),
    );
    api.post(
      CREDIT_PATHS.saveCreditFt,
      { perm: save, scope: 'credit', body: ftSaveSchema },
      async ({ body, actor }) => saveFt(deps, body, actor),
    );
    api.post(
      CREDIT_PATHS.saveReceivables,
      { perm: [save, button(INFO, 'import')], scope: 'credit', body: receivablesSaveSchema },
      async ({ body, actor }) => saveReceivables(deps, body, actor),
    );
    api.post(
      CREDIT_PATHS.saveInvoiceVerification,
      { perm: save, scope: 'credit', body: invoiceVerificationSchema },
      async ({ body, actor }) => saveInvoiceVerification(deps, body, actor),
    );
    api.post(
      CREDIT_PATHS.saveCredFile,
      { perm: save, scope: 'credit', body: credFileSaveSchema },
      async ({ body, actor }) => saveCredFiles(deps, body, actor),
    );
    api.post(
      CREDIT_PATHS.importReceivables,
      {
        perm: button(INFO, 'import'),
        scope: { none: 'previews an upload; the credit it may name is checked by the handler' },
        envelope: false,
        summary:
          'xlsx (multipart, field "file"; optional field credBizCode) -> per-row preview; nothing saved',
      },
      async ({ req, user }) => {
        const { buf, fields } = await readXlsxUpload(req, config.uploadLimitBytes);
        const credBizCode = fields.credBizCode;
        let creditId: number | undefined;
        if (credBizCode) {
          if (!/^\d{12}$/.test(credBizCode)) throw badInput('授信编号必须是12位数字编号');
          if ((await rowVisibility(db, 'credit', credBizCode, user)) === 'hidden') throw notFound('授信');
          creditId = (await getCredit(db, credBizCode)).id;
        }
        const rows = await parseReceivablesXlsx(buf);
        return previewReceivables(db, rows, clock.today(), creditId);
      },
    );

    // Distribution
    registerDocument(api, db, workflow, {
      type: 'credDistribution',
      table: 'cred_distributions',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyDistribution(tx, doc.code, actor, clock.today()) },
      codeParam: 'bizCode',
      scope: [OF_CREDIT],
      save: {
        path: CREDIT_PATHS.saveCredDistribution,
        perm: [button(DIST, 'add'), button(DIST, 'save')],
        body: distSaveSchema,
        write: (tx, body, { actor }) => saveDistribution(tx, workflow, body, actor),
        find: getDist,
        submission: distSubmission,
      },
      remove: {
        path: CREDIT_PATHS.deleteCredDistribution,
        perm: button(DIST, 'delete'),
        query: bizCodeOnly,
        remove: deleteDistribution,
      },
      audit: { path: CREDIT_PATHS.passCredDistribution, perm: button(DIST, 'pass') },
      unAudit: { path: CREDIT_PATHS.rejectCredDistribution, perm: button(DIST, 'reject') },
    });
    api.post(
      CREDIT_PATHS.saveCredDistributionFile,
      {
        perm: button(DIST, 'save'),
        scope: { kind: 'credDistribution', params: ['distBizCode'] },
        body: distFileSaveSchema,
      },
      async ({ body, actor }) => saveDistFiles(deps, body, actor),
    );

    // Change
    registerDocument(api, db, workflow, {
      type: 'credChange',
      table: 'cred_changes',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyChange(tx, doc.code, actor, clock.today()) },
      codeParam: 'bizCode',
      scope: [OF_CREDIT],
      save: {
        path: CREDIT_PATHS.saveCredChange,
        perm: [button(CHG, 'add'), button(CHG, 'save')],
        body: changeSaveSchema,
        write: (tx, body, { actor }) => saveChange(tx, workflow, body, actor),
        find: getChange,
        submission: changeSubmission,
      },
      remove: {
        path: CREDIT_PATHS.deleteCredChange,
        perm: button(CHG, 'delete'),
        query: bizCodeOnly,
        remove: deleteChange,
      },
      audit: { path: CREDIT_PATHS.passCredChange, perm: button(CHG, 'pass') },
      unAudit: { path: CREDIT_PATHS.rejectCredChange, perm: button(CHG, 'reject') },
    });
  },
  demo: seedDemoCredit,
};
