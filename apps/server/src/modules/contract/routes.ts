import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import {
  businessSaveSchema,
  changeCodeQuery,
  changeListSchema,
  changeSaveSchema,
  contBizCodeQuery,
  contractPickSchema,
  CONTRACT_DICT,
  CONTRACT_PATHS,
  contractCodeQuery,
  contractListSchema,
  custCodeQuery,
  detailCodeQuery,
  dueSaveSchema,
  fileSaveSchema,
  HANDOVER_PATHS,
  handoverCodeQuery,
  handoverListSchema,
  handoverSaveSchema,
  handoverViewQuery,
  infoSaveSchema,
  METHOD_LABELS,
  planAddSchema,
  platCredQuery,
  schemeSaveSchema,
  type CompanyMember,
  type ContractInit,
} from '@portal/contract/contract';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { badInput, notFound } from '../../platform/errors';
import { getCustomer, COMPANY_USAGE, viewCompany } from '../company';
import { listAccounts, BANK_ACCOUNT_USAGE } from '../bank';
import { RULE_USAGE } from '../ruler';
import { linesOfCustomer } from '../credit';
import { getCredit } from '../credit';
import { creditReceivables } from '../credit/schema';
import { registerDocument, WORKFLOW_REGISTRY } from '../workflow';
import {
  bankUsage,
  customerUsage,
  deleteInfo,
  findContract,
  listContracts,
  payersOf,
  pickContracts,
  ruleUsage,
  toReceivable,
  viewInfo,
  writeInfo,
} from './service';
import { compactContractTally } from './tally';
import { planPreview, planProblem, activeItems, suggestDues, viewDues, viewScheme } from './plan';
import { approveContract } from './approval';
import { saveDues, saveScheme } from './plan-save';
import { CONTRACT_DOC, fileHistory, saveBusiness, saveFiles, viewBusiness } from './business-info';
import { prepaymentInit } from './prepayment-init';
import {
  applyChange,
  beforeAfter,
  changeInit,
  changeView,
  deleteChange,
  findChange,
  listChanges,
  saveChange,
} from './change';
import {
  deleteHandover,
  findHandover,
  handoverInit,
  listHandovers,
  saveHandover,
  viewHandover,
} from './handover';
import { previewContractReceivables, previewPlanExcel } from './imports';
import { readXlsxUpload } from '../../platform/xlsx';
import { listFiles } from '../files';
import { seedDemoContracts } from './demo';
import { KeysetPages } from '../../platform/http/list';
import { streamListExport } from '../../platform/http/export';
import { contractExport } from './export';
import { listOf, UNSCOPED, type RouteScope } from '../../platform/http/route-scope';
import { rowVisibility } from '../../platform/auth/row-scope';

/** The credit lines of the customer a contract form picked, whoever manages the customer. */
const PICKED_CUSTOMER: RouteScope = { none: 'the lines of the customer a contract form picked: a picker' };
const INFO = 'ft-contract-info';
const CHG = 'ft-contract-chg';
const HO = 'ft-contract-handover';

const TALLY_COMPACTION_MS = 60_000;

export const contractModule: PortalModule = {
  name: 'contract',
  demo: seedDemoContracts,
  register({ api, registries, app, db, clock }) {
    const workflow = registries.get(WORKFLOW_REGISTRY);
    const listPages = new KeysetPages();
    // The list's tally gathers a delta row per write; folding them keeps its sums short.
    const compaction = setInterval(
      () =>
        void compactContractTally(db).catch((err: unknown) =>
          app.log.error({ err }, 'contract tally compaction failed'),
        ),
      TALLY_COMPACTION_MS,
    );
    compaction.unref();
    app.addHook('onClose', async () => clearInterval(compaction));
    registries.get(RULE_USAGE).add(ruleUsage);
    registries.get(COMPANY_USAGE).add(customerUsage);
    registries.get(BANK_ACCOUNT_USAGE).add(bankUsage);

    const readers = [menu(INFO), menu(CHG), menu(HO)];
    const editors = [button(INFO, 'add'), button(INFO, 'save')];
    const dict = async () => CONTRACT_DICT;
    for (const path of [
      CONTRACT_PATHS.dict,
      CONTRACT_PATHS.listDict,
      CONTRACT_PATHS.infoDict,
      CONTRACT_PATHS.scheDict,
      CONTRACT_PATHS.dueDict,
      CONTRACT_PATHS.businessDict,
    ])
      api.post(path, { perm: readers, scope: UNSCOPED.reference }, dict);
    api.post(CONTRACT_PATHS.chgDict, { perm: menu(CHG), scope: UNSCOPED.reference }, dict);

    // ---- Contract info
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
        perm: readers,
        read: async (ex, code, user) => viewInfo(ex, await findContract(ex, code, user)),
      },
      save: {
        path: CONTRACT_PATHS.infoSave,
        perm: editors,
        body: infoSaveSchema,
        write: (tx, body, { actor }) => writeInfo(tx, body, actor, clock.today()),
        find: (ex, code) => findContract(ex, code),
        submission: async (tx, row) => {
          const problem = planProblem(row, await activeItems(tx, row.id));
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

    // ---- Pickers and initialisations
    api.post(CONTRACT_PATHS.custList, { perm: readers, scope: UNSCOPED.picker }, async () =>
      // One row per approved platform credit: the editor picks the credit, the customer follows.
      queryRows<{ custCode: string; custName: string; credBizCode: string; endDate: string }>(
        db,
        sql`select c.cust_code as "custCode", c.cust_name as "custName", c.biz_code as "credBizCode",
                   to_char(c.end_date, 'YYYY-MM-DD') as "endDate"
              from credits c where c.state = 'approved' and c.deleted_at is null order by c.cust_name, c.biz_code`,
      ),
    );
    api.post(CONTRACT_PATHS.bank, { perm: readers, scope: UNSCOPED.picker }, async () => {
      const res = await listAccounts(db, { ownerType: 'self', pageNum: 1, pageSize: 500 } as Parameters<
        typeof listAccounts
      >[1]);
      return res.list;
    });
    // The customer's whole record (its files too): only within the scope over customers.
    api.post(
      CONTRACT_PATHS.compInfo,
      { perm: readers, scope: 'customer', query: custCodeQuery },
      async ({ query }) => viewCompany(db, query.custCode),
    );
    api.post(
      CONTRACT_PATHS.init,
      {
        perm: editors,
        scope: { none: 'initialises a new contract from an approved credit the contract form picked' },
        query: platCredQuery,
      },
      async ({ query }): Promise<ContractInit> => {
        const credit = await getCredit(db, query.platCredBizCode);
        if (credit.state !== 'approved') throw badInput('平台授信未审核通过');
        const lines = (await linesOfCustomer(db, credit.custCode)).filter((l) => l.state === 'active');
        const own = await queryRows<{ code: string }>(
          db,
          sql`select biz_code as code from credit_lines where credit_id = ${credit.id}`,
        );
        const codes = new Set(own.map((o) => o.code));
        const free = await db
          .select()
          .from(creditReceivables)
          .where(
            and(
              eq(creditReceivables.creditId, credit.id),
              sql`not exists (select 1 from contract_receivables r where r.live and r.invoice_code = ${creditReceivables.invoiceCode} and r.invoice_no = ${creditReceivables.invoiceNo})`,
            ),
          );
        const ft = await queryRows<{ recourse: 'with' | 'without' }>(
          db,
          sql`select recourse from credit_ft_items where credit_id = ${credit.id} order by sort limit 1`,
        );
        return {
          platCredBizCode: credit.bizCode,
          custCode: credit.custCode,
          custName: credit.custName,
          recourse: ft[0]?.recourse ?? null,
          product: credit.product as ContractInit['product'],
          currency: credit.currency,
          lines: lines.filter((l) => codes.has(l.lineCode)),
          receivables: free.map(toReceivable),
        };
      },
    );
    api.post(
      CONTRACT_PATHS.credInit,
      { perm: readers, scope: PICKED_CUSTOMER, query: custCodeQuery },
      async ({ query }) => {
        if (!(await getCustomer(db, query.custCode))) throw notFound('客户');
        return (await linesOfCustomer(db, query.custCode)).filter((l) => l.state === 'active');
      },
    );
    api.post(
      CONTRACT_PATHS.chgCredInit,
      { perm: menu(CHG), scope: 'contract', query: contractCodeQuery },
      async ({ query, user }) => {
        const row = await findContract(db, query.bizCode, user);
        const lines = (await linesOfCustomer(db, row.custCode)).filter((l) => l.state === 'active');
        // What this contract holds counts as available to itself when its change moves the amount.
        return lines.map((l) =>
          l.lineCode === row.lineCode
            ? { ...l, availableAmount: new Decimal(l.availableAmount).plus(row.occupiedAmount).toFixed(2) }
            : l,
        );
      },
    );
    api.post(
      CONTRACT_PATHS.companyMember,
      { perm: readers, scope: UNSCOPED.picker },
      async (): Promise<CompanyMember[]> =>
        queryRows<CompanyMember>(
          db,
          sql`select u.id as "userId", coalesce(u.real_name, u.user_name) as name, d.biz_code as "deptCode", d.name as "deptName"
              from users u left join depts d on d.id = u.dept_id
             where u.deleted_at is null and u.state = 'enabled' order by d.name nulls last, u.id`,
        ),
    );
    api.post(
      CONTRACT_PATHS.isPrevious,
      { perm: button(INFO, 'isPrevious'), scope: 'contract', query: contractCodeQuery },
      async ({ query, user }) => prepaymentInit(db, await findContract(db, query.bizCode, user)),
    );
    api.post(
      CONTRACT_PATHS.isChange,
      { perm: [button(INFO, 'isChange'), button(CHG, 'add')], scope: 'contract', query: contractCodeQuery },
      async ({ query, user }) => changeInit(db, await findContract(db, query.bizCode, user), clock.today()),
    );
    // isLoan (放款初始化) answers a new 放款单's prefill: served by the loan module (loan/routes.ts).
    api.post(
      CONTRACT_PATHS.payerInfo,
      { perm: [...readers, menu('ft-pa-mgr'), menu('ft-paid')], scope: 'contract', query: contBizCodeQuery },
      async ({ query, user }) => payersOf(db, (await findContract(db, query.contBizCode, user)).id),
    );

    // ---- Scheme, dues, business info, files
    api.post(CONTRACT_PATHS.planType, { perm: readers, scope: UNSCOPED.reference }, async () =>
      Object.entries(METHOD_LABELS).map(([code, label]) => ({ type: 'method', code, label })),
    );
    api.post(
      CONTRACT_PATHS.planAdd,
      {
        perm: [...editors, button(CHG, 'save'), button(CHG, 'add')],
        scope: { kind: 'contract', params: ['contBizCode'] },
        body: planAddSchema,
      },
      async ({ body, user }) =>
        planPreview(db, body, body.contBizCode ? await findContract(db, body.contBizCode, user) : null),
    );
    api.post(
      CONTRACT_PATHS.schemeSave,
      { perm: editors, scope: 'contract', body: schemeSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, body.contBizCode, user);
          return saveScheme(tx, workflow, body, actor);
        }),
    );
    api.post(
      CONTRACT_PATHS.schemeView,
      { perm: readers, scope: 'contract', query: contBizCodeQuery },
      async ({ query, user }) =>
        viewScheme(db, await findContract(db, query.contBizCode, user), clock.today()),
    );
    api.post(
      CONTRACT_PATHS.due,
      { perm: editors, scope: 'contract', query: contBizCodeQuery },
      async ({ query, user }) => suggestDues(await findContract(db, query.contBizCode, user)),
    );
    api.post(
      CONTRACT_PATHS.dueSave,
      { perm: editors, scope: 'contract', body: dueSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, body.contBizCode, user);
          return saveDues(tx, workflow, body, actor);
        }),
    );
    api.post(
      CONTRACT_PATHS.dueView,
      { perm: [...readers, menu('ft-pa-mgr')], scope: 'contract', query: contBizCodeQuery },
      async ({ query, user }) => viewDues(db, (await findContract(db, query.contBizCode, user)).id),
    );
    api.post(
      CONTRACT_PATHS.businessSave,
      { perm: editors, scope: 'contract', body: businessSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, body.contBizCode, user);
          return saveBusiness(tx, workflow, body, actor);
        }),
    );
    api.post(
      CONTRACT_PATHS.businessView,
      { perm: readers, scope: 'contract', query: contBizCodeQuery },
      async ({ query, user }) => viewBusiness(db, await findContract(db, query.contBizCode, user)),
    );
    api.post(
      CONTRACT_PATHS.fileHistory,
      { perm: readers, scope: 'contractDetail', query: detailCodeQuery },
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
      { perm: editors, scope: 'contract', body: fileSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, body.contBizCode, user);
          return saveFiles(tx, workflow, body, actor);
        }),
    );
    api.post(
      CONTRACT_PATHS.fileView,
      { perm: readers, scope: 'contract', query: contBizCodeQuery },
      async ({ query, user }) => {
        const row = await findContract(db, query.contBizCode, user);
        return listFiles(db, CONTRACT_DOC, row.bizCode);
      },
    );

    // ---- Imports
    api.post(
      CONTRACT_PATHS.importReceivables,
      {
        perm: [button(INFO, 'import'), ...editors],
        scope: { none: 'previews an upload; the credit it may name is checked by the handler' },
        envelope: false,
        summary: 'xlsx (multipart "file"; optional field platCredBizCode) -> per-row preview; nothing saved',
      },
      async ({ req, user }) => {
        const { buf, fields } = await readXlsxUpload(req);
        let creditId: number | undefined;
        if (fields.platCredBizCode) {
          if (!/^\d{12}$/.test(fields.platCredBizCode)) throw badInput('平台授信编号必须是12位数字编号');
          if ((await rowVisibility(db, 'credit', fields.platCredBizCode, user)) === 'hidden')
            throw notFound('平台授信');
          creditId = (await getCredit(db, fields.platCredBizCode)).id;
        }
        return previewContractReceivables(db, buf, clock.today(), creditId);
      },
    );
    api.post(
      CONTRACT_PATHS.resolvePlanExcel,
      {
        perm: [...editors, button(CHG, 'save'), button(CHG, 'add')],
        scope: { none: 'computes a plan from an uploaded sheet; reads nothing stored' },
        envelope: false,
        summary:
          'xlsx (multipart "file"; optional fields financingAmount, startDate) -> per-row preview; nothing saved',
      },
      async ({ req }) => {
        const { buf, fields } = await readXlsxUpload(req);
        return previewPlanExcel(buf, {
          financingAmount: fields.financingAmount,
          startDate: fields.startDate,
        });
      },
    );

    // ---- Changes
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
    const chgView = <
      K extends 'info' | 'plan' | 'dues' | 'business' | 'fileTokens' | 'payers' | 'receivables',
    >(
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

    // ---- Handover sheets
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
  },
};
