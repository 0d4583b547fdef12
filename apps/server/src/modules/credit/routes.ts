import { and, asc, eq, isNull } from 'drizzle-orm';
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
  userListQuery,
  utilisationSchema,
} from '@portal/contract/credit';
import { COMP_ROLES, type CompRole } from '@portal/contract/company';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { badInput, notFound } from '../../platform/errors';
import { users } from '../../platform/auth/schema';
import { companyDict, registerCompanyUsageCheck } from '../company/service';
import {
  applyCredit,
  creditHistory,
  credFiles,
  custFiles,
  deleteCredit,
  getCredit,
  listCredits,
  saveCredFiles,
  saveFt,
  saveGuarantees,
  saveInvoiceVerification,
  savePlatform,
  saveReceivables,
  utilisation,
  viewFt,
  viewGuarantees,
  viewPlatform,
  viewReceivables,
  type CreditDeps,
} from './service';
import {
  applyDistribution,
  deleteDistribution,
  distFiles,
  listDistributions,
  saveDistFiles,
  saveDistribution,
  viewDistribution,
} from './distribution';
import { applyChange, deleteChange, listChanges, saveChange, viewChange } from './change';
import { parseReceivablesXlsx, previewReceivables } from './invoices';
import { linesOfCustomer } from './ledger';
import { customerUsage } from './usage';
import { seedDemoCredit } from './demo';
import { registerDocType } from '../workflow/registry';
import { auditRoutes } from '../workflow/wire';

const p = (path: string) => `/api${path}`;
const INFO = 'ft-credit-info';
const DIST = 'ft-credit-dist';
const CHG = 'ft-credit-chg';
const CONTRACT = 'ft-contract-info';

export const creditModule: PortalModule = {
  name: 'credit',
  register({ api, db, config, clock }) {
    const deps: CreditDeps = { db, config, clock };
    // The approvals of our three documents run on the workflow; their side effects are these hooks.
    registerDocType({
      type: 'credit',
      table: 'credits',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyCredit(tx, doc.code, actor, clock.today()) },
    });
    registerDocType({
      type: 'credDistribution',
      table: 'cred_distributions',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyDistribution(tx, doc.code, actor, clock.today()) },
    });
    registerDocType({
      type: 'credChange',
      table: 'cred_changes',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyChange(tx, doc.code, actor, clock.today()) },
    });
    const readers = [menu(INFO), menu(DIST), menu(CHG)];
    registerCompanyUsageCheck(customerUsage);

    // Lists and dictionaries
    api.post(p(CREDIT_PATHS.dict), { perm: readers }, async () => CREDIT_DICT);
    api.post(p(CREDIT_PATHS.creditList), { perm: readers, body: creditListSchema }, async ({ body }) =>
      listCredits(db, body),
    );
    api.post(
      p(CREDIT_PATHS.credDistributionList),
      { perm: menu(DIST), body: distListSchema },
      async ({ body }) => listDistributions(db, body),
    );
    api.post(p(CREDIT_PATHS.credChangeList), { perm: menu(CHG), body: changeListSchema }, async ({ body }) =>
      listChanges(db, body),
    );

    // Queries (?bizCode and optionally &credBizCode)
    const credit =
      (fn: (code: string) => Promise<unknown>) =>
      async ({ query }: { query: { bizCode: string; credBizCode?: string | undefined } }) => {
        if (query.credBizCode && query.credBizCode !== query.bizCode) throw notFound('授信');
        return fn(query.bizCode);
      };
    api.post(
      p(CREDIT_PATHS.creditPlatform),
      { perm: readers, query: creditQuery },
      credit((c) => viewPlatform(db, c)),
    );
    api.post(
      p(CREDIT_PATHS.creditGua),
      { perm: readers, query: creditQuery },
      credit((c) => viewGuarantees(db, c)),
    );
    api.post(
      p(CREDIT_PATHS.creditFt),
      { perm: readers, query: creditQuery },
      credit((c) => viewFt(db, c)),
    );
    api.post(
      p(CREDIT_PATHS.receivables),
      { perm: readers, query: creditQuery },
      credit((c) => viewReceivables(db, c)),
    );
    api.post(
      p(CREDIT_PATHS.creditHistory),
      { perm: readers, query: creditQuery },
      credit((c) => creditHistory(db, c)),
    );
    api.post(
      p(CREDIT_PATHS.credFile),
      { perm: readers, query: creditQuery },
      credit((c) => credFiles(db, c)),
    );
    api.post(p(CREDIT_PATHS.credDistribution), { perm: menu(DIST), query: creditQuery }, async ({ query }) =>
      viewDistribution(db, query.bizCode, query.credBizCode),
    );
    api.post(
      p(CREDIT_PATHS.credDistributionFile),
      { perm: menu(DIST), query: creditQuery },
      async ({ query }) => {
        if (query.credBizCode) await viewDistribution(db, query.bizCode, query.credBizCode);
        return distFiles(db, query.bizCode);
      },
    );
    api.post(p(CREDIT_PATHS.credChange), { perm: menu(CHG), query: creditQuery }, async ({ query }) =>
      viewChange(db, query.bizCode, query.credBizCode),
    );

    // Pickers
    api.post(p(CREDIT_PATHS.compList), { perm: readers, query: compListQuery }, async ({ query }) => {
      const dif = query.compdif;
      if (dif !== 'all' && !(COMP_ROLES as readonly string[]).includes(dif))
        throw badInput(`企业类型取值不正确（all 或 ${COMP_ROLES.join('、')}）`);
      return companyDict(db, dif === 'all' ? {} : { role: dif as CompRole });
    });
    api.post(p(CREDIT_PATHS.userList), { perm: readers, query: userListQuery }, async () =>
      db
        .select({ code: users.userCode, label: users.realName, userName: users.userName })
        .from(users)
        .where(and(eq(users.state, 'enabled'), isNull(users.deletedAt)))
        .orderBy(asc(users.realName))
        .limit(2000),
    );
    api.post(p(CREDIT_PATHS.custFileList), { perm: readers, query: custFileQuery }, async ({ query }) =>
      custFiles(db, query.custBizCode),
    );
    api.post(p(CREDIT_PATHS.utilisation), { perm: menu(INFO), body: utilisationSchema }, async ({ body }) =>
      utilisation(db, body),
    );
    api.post(
      p(CREDIT_PATHS.lines),
      { perm: [...readers, menu(CONTRACT)], query: linesQuery },
      async ({ query }) => linesOfCustomer(db, query.custCode),
    );

    // Credit record saves
    const save = button(INFO, 'save');
    api.post(
      p(CREDIT_PATHS.saveCreditPlatform),
      { perm: [button(INFO, 'add'), save], body: platformSaveSchema },
      async ({ body, actor }) => savePlatform(deps, body, actor),
    );
    api.post(p(CREDIT_PATHS.saveCreditGua), { perm: save, body: guaSaveSchema }, async ({ body, actor }) =>
      saveGuarantees(deps, body, actor),
    );
    api.post(p(CREDIT_PATHS.saveCreditFt), { perm: save, body: ftSaveSchema }, async ({ body, actor }) =>
      saveFt(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.saveReceivables),
      { perm: [save, button(INFO, 'import')], body: receivablesSaveSchema },
      async ({ body, actor }) => saveReceivables(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.saveInvoiceVerification),
      { perm: save, body: invoiceVerificationSchema },
      async ({ body, actor }) => saveInvoiceVerification(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.saveCredFile),
      { perm: save, body: credFileSaveSchema },
      async ({ body, actor }) => saveCredFiles(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.deleteCreditPlatform),
      { perm: button(INFO, 'delete'), query: bizCodeOnly },
      async ({ query, actor }) => {
        await deleteCredit(deps, query.bizCode, actor);
        return null;
      },
    );
    auditRoutes(api, db, {
      type: 'credit',
      audit: { path: p(CREDIT_PATHS.passCredit), perm: button(INFO, 'pass') },
      unAudit: { path: p(CREDIT_PATHS.rejectCredit), perm: button(INFO, 'reject') },
    });
    api.post(
      p(CREDIT_PATHS.importReceivables),
      {
        perm: button(INFO, 'import'),
        envelope: false,
        summary:
          'xlsx (multipart, field "file"; optional field credBizCode) -> per-row preview; nothing saved',
      },
      async ({ req }) => {
        if (!req.isMultipart()) throw badInput('请以multipart/form-data方式上传xlsx文件');
        const part = await req.file();
        if (!part) throw badInput('请选择要导入的文件');
        if (!/\.xlsx$/i.test(part.filename)) throw badInput('只能导入xlsx格式的文件');
        const buf = await part.toBuffer();
        const credField = part.fields.credBizCode;
        const credBizCode =
          credField && !Array.isArray(credField) && credField.type === 'field'
            ? String(credField.value)
            : undefined;
        let creditId: number | undefined;
        if (credBizCode) {
          if (!/^\d{12}$/.test(credBizCode)) throw badInput('授信编号必须是12位数字编号');
          creditId = (await getCredit(db, credBizCode)).id;
        }
        const rows = await parseReceivablesXlsx(buf);
        return previewReceivables(db, rows, clock.today(), creditId);
      },
    );

    // Distribution
    api.post(
      p(CREDIT_PATHS.saveCredDistribution),
      { perm: [button(DIST, 'add'), button(DIST, 'save')], body: distSaveSchema },
      async ({ body, actor }) => saveDistribution(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.saveCredDistributionFile),
      { perm: button(DIST, 'save'), body: distFileSaveSchema },
      async ({ body, actor }) => saveDistFiles(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.deleteCredDistribution),
      { perm: button(DIST, 'delete'), query: bizCodeOnly },
      async ({ query, actor }) => {
        await deleteDistribution(deps, query.bizCode, actor);
        return null;
      },
    );
    auditRoutes(api, db, {
      type: 'credDistribution',
      audit: { path: p(CREDIT_PATHS.passCredDistribution), perm: button(DIST, 'pass') },
      unAudit: { path: p(CREDIT_PATHS.rejectCredDistribution), perm: button(DIST, 'reject') },
    });

    // Change
    api.post(
      p(CREDIT_PATHS.saveCredChange),
      { perm: [button(CHG, 'add'), button(CHG, 'save')], body: changeSaveSchema },
      async ({ body, actor }) => saveChange(deps, body, actor),
    );
    api.post(
      p(CREDIT_PATHS.deleteCredChange),
      { perm: button(CHG, 'delete'), query: bizCodeOnly },
      async ({ query, actor }) => {
        await deleteChange(deps, query.bizCode, actor);
        return null;
      },
    );
    auditRoutes(api, db, {
      type: 'credChange',
      audit: { path: p(CREDIT_PATHS.passCredChange), perm: button(CHG, 'pass') },
      unAudit: { path: p(CREDIT_PATHS.rejectCredChange), perm: button(CHG, 'reject') },
    });
  },
  demo: seedDemoCredit,
};
