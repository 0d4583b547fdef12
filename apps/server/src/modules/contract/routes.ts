import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import {
  businessSaveSchema,
  changeCodeQuery,
  changeListSchema,
  changeSaveSchema,
  contBizCodeQuery,
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
  loanSchema,
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
import { getCustomer, registerCompanyUsageCheck, viewCompany } from '../company/service';
import { listAccounts, registerBankAccountUsageCheck } from '../bank/service';
import { registerRuleUsageCheck } from '../ruler/service';
import { linesOfCustomer } from '../credit/ledger';
import { getCredit } from '../credit/service';
import { creditReceivables } from '../credit/schema';
import { registerDocType } from '../workflow/registry';
import { assertDeletable, assertEditable, submit } from '../workflow/service';
import { auditRoutes } from '../workflow/wire';
import {
  bankUsage,
  customerUsage,
  deleteInfo,
  findContract,
  listContracts,
  payersOf,
  ruleUsage,
  toReceivable,
  viewInfo,
  writeInfo,
} from './service';
import { compactContractTally } from './tally';
import { planPreview, planProblem, activeItems, suggestDues, viewDues, viewScheme } from './plan';
import {
  approveContract,
  fileHistory,
  loan,
  prepaymentInit,
  saveBusiness,
  saveDues,
  saveFiles,
  saveScheme,
  viewBusiness,
  CONTRACT_DOC,
} from './lifecycle';
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
import { listFiles } from '../files/service';
import { seedDemoContracts } from './demo';

const p = (path: string) => `/api${path}`;
const INFO = 'ft-contract-info';
const CHG = 'ft-contract-chg';
const HO = 'ft-contract-handover';

const TALLY_COMPACTION_MS = 60_000;

export const contractModule: PortalModule = {
  name: 'contract',
  demo: seedDemoContracts,
  register({ api, app, db, clock }) {
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
    registerDocType({
      type: 'contract',
      table: 'contracts',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => approveContract(tx, doc.code, actor, clock.today()) },
    });
    registerDocType({
      type: 'contractChange',
      table: 'contract_changes',
      stamps: true,
      hooks: { onApprove: (tx, doc, actor) => applyChange(tx, doc.code, actor, clock.today()) },
    });
    registerDocType({ type: 'handover', table: 'handovers', stamps: true });
    registerRuleUsageCheck(ruleUsage);
    registerCompanyUsageCheck(customerUsage);
    registerBankAccountUsageCheck(bankUsage);

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
      api.post(p(path), { perm: readers }, dict);
    api.post(p(CONTRACT_PATHS.chgDict), { perm: menu(CHG) }, dict);

    // ---- Contract info
    api.post(p(CONTRACT_PATHS.list), { perm: menu(INFO), body: contractListSchema }, ({ body, user }) =>
      listContracts(db, body, user, clock.today()),
    );
    api.post(
      p(CONTRACT_PATHS.infoView),
      { perm: readers, query: contractCodeQuery },
      async ({ query, user }) => viewInfo(db, await findContract(db, query.bizCode, user)),
    );
    api.post(p(CONTRACT_PATHS.infoSave), { perm: editors, body: infoSaveSchema }, ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        if (body.bizCode) {
          await findContract(tx, body.bizCode, user);
          await assertEditable(tx, 'contract', body.bizCode);
        }
        const code = await writeInfo(tx, body, actor, clock.today());
        const row = await findContract(tx, code);
        let flow = null;
        if (body.submit) {
          const problem = planProblem(row, await activeItems(tx, row.id));
          if (problem) throw badInput(problem);
          flow = await submit(tx, {
            type: 'contract',
            code,
            subject: `合同 ${row.contractNo} ${row.custName}`,
            amount: row.financingAmount,
            actor,
          });
        }
        const after = await findContract(tx, code);
        return { bizCode: code, version: after.version, state: after.state, flow };
      }),
    );
    api.post(
      p(CONTRACT_PATHS.infoDelete),
      { perm: button(INFO, 'delete'), query: contractCodeQuery },
      ({ query, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, query.bizCode, user);
          await assertDeletable(tx, 'contract', query.bizCode);
          await deleteInfo(tx, await findContract(tx, query.bizCode), actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'contract',
      audit: { path: p(CONTRACT_PATHS.infoAudit), perm: button(INFO, 'audit') },
      unAudit: { path: p(CONTRACT_PATHS.infoUnAudit), perm: button(INFO, 'unAudit') },
    });

    // ---- Pickers and initialisations
    api.post(p(CONTRACT_PATHS.custList), { perm: readers }, async () =>
      // One row per approved platform credit: the editor picks the credit, the customer follows.
      queryRows<{ custCode: string; custName: string; credBizCode: string; endDate: string }>(
        db,
        sql`select c.cust_code as "custCode", c.cust_name as "custName", c.biz_code as "credBizCode",
                   to_char(c.end_date, 'YYYY-MM-DD') as "endDate"
              from credits c where c.state = 'approved' and c.deleted_at is null order by c.cust_name, c.biz_code`,
      ),
    );
    api.post(p(CONTRACT_PATHS.bank), { perm: readers }, async () => {
      const res = await listAccounts(db, { ownerType: 'self', pageNum: 1, pageSize: 500 } as Parameters<
        typeof listAccounts
      >[1]);
      return res.list;
    });
    api.post(p(CONTRACT_PATHS.compInfo), { perm: readers, query: custCodeQuery }, async ({ query }) =>
      viewCompany(db, query.custCode),
    );
    api.post(
      p(CONTRACT_PATHS.init),
      { perm: editors, query: platCredQuery },
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
    api.post(p(CONTRACT_PATHS.credInit), { perm: readers, query: custCodeQuery }, async ({ query }) => {
      if (!(await getCustomer(db, query.custCode))) throw notFound('客户');
      return (await linesOfCustomer(db, query.custCode)).filter((l) => l.state === 'active');
    });
    api.post(
      p(CONTRACT_PATHS.chgCredInit),
      { perm: menu(CHG), query: contractCodeQuery },
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
    api.post(p(CONTRACT_PATHS.companyMember), { perm: readers }, async (): Promise<CompanyMember[]> =>
      queryRows<CompanyMember>(
        db,
        sql`select u.id as "userId", coalesce(u.real_name, u.user_name) as name, d.biz_code as "deptCode", d.name as "deptName"
              from users u left join depts d on d.id = u.dept_id
             where u.deleted_at is null and u.state = 'enabled' order by d.name nulls last, u.id`,
      ),
    );
    api.post(
      p(CONTRACT_PATHS.isPrevious),
      { perm: button(INFO, 'isPrevious'), query: contractCodeQuery },
      async ({ query, user }) => prepaymentInit(db, await findContract(db, query.bizCode, user)),
    );
    api.post(
      p(CONTRACT_PATHS.isChange),
      { perm: [button(INFO, 'isChange'), button(CHG, 'add')], query: contractCodeQuery },
      async ({ query, user }) => changeInit(db, await findContract(db, query.bizCode, user), clock.today()),
    );
    api.post(
      p(CONTRACT_PATHS.isLoan),
      { perm: button(INFO, 'isLoan'), query: contractCodeQuery, body: loanSchema },
      ({ query, body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, query.bizCode, user);
          return loan(tx, query.bizCode, body, actor, clock.today());
        }),
    );
    api.post(
      p(CONTRACT_PATHS.payerInfo),
      { perm: [...readers, menu('ft-pa-mgr'), menu('ft-paid')], query: contBizCodeQuery },
      async ({ query, user }) => payersOf(db, (await findContract(db, query.contBizCode, user)).id),
    );

    // ---- Scheme, dues, business info, files
    api.post(p(CONTRACT_PATHS.planType), { perm: readers }, async () =>
      Object.entries(METHOD_LABELS).map(([code, label]) => ({ type: 'method', code, label })),
    );
    api.post(
      p(CONTRACT_PATHS.planAdd),
      { perm: [...editors, button(CHG, 'save'), button(CHG, 'add')], body: planAddSchema },
      async ({ body, user }) =>
        planPreview(db, body, body.contBizCode ? await findContract(db, body.contBizCode, user) : null),
    );
    api.post(
      p(CONTRACT_PATHS.schemeSave),
      { perm: editors, body: schemeSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, body.contBizCode, user);
          return saveScheme(tx, body, actor);
        }),
    );
    api.post(
      p(CONTRACT_PATHS.schemeView),
      { perm: readers, query: contBizCodeQuery },
      async ({ query, user }) =>
        viewScheme(db, await findContract(db, query.contBizCode, user), clock.today()),
    );
    api.post(p(CONTRACT_PATHS.due), { perm: editors, query: contBizCodeQuery }, async ({ query, user }) =>
      suggestDues(await findContract(db, query.contBizCode, user)),
    );
    api.post(p(CONTRACT_PATHS.dueSave), { perm: editors, body: dueSaveSchema }, ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        await findContract(tx, body.contBizCode, user);
        return saveDues(tx, body, actor);
      }),
    );
    api.post(
      p(CONTRACT_PATHS.dueView),
      { perm: [...readers, menu('ft-pa-mgr')], query: contBizCodeQuery },
      async ({ query, user }) => viewDues(db, (await findContract(db, query.contBizCode, user)).id),
    );
    api.post(
      p(CONTRACT_PATHS.businessSave),
      { perm: editors, body: businessSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          await findContract(tx, body.contBizCode, user);
          return saveBusiness(tx, body, actor);
        }),
    );
    api.post(
      p(CONTRACT_PATHS.businessView),
      { perm: readers, query: contBizCodeQuery },
      async ({ query, user }) => viewBusiness(db, await findContract(db, query.contBizCode, user)),
    );
    api.post(
      p(CONTRACT_PATHS.fileHistory),
      { perm: readers, query: detailCodeQuery },
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
    api.post(p(CONTRACT_PATHS.fileSave), { perm: editors, body: fileSaveSchema }, ({ body, actor, user }) =>
      db.transaction(async (tx) => {
        await findContract(tx, body.contBizCode, user);
        return saveFiles(tx, body, actor);
      }),
    );
    api.post(
      p(CONTRACT_PATHS.fileView),
      { perm: readers, query: contBizCodeQuery },
      async ({ query, user }) => {
        const row = await findContract(db, query.contBizCode, user);
        return listFiles(db, CONTRACT_DOC, row.bizCode);
      },
    );

    // ---- Imports
    api.post(
      p(CONTRACT_PATHS.importReceivables),
      {
        perm: [button(INFO, 'import'), ...editors],
        envelope: false,
        summary: 'xlsx (multipart "file"; optional field platCredBizCode) -> per-row preview; nothing saved',
      },
      async ({ req }) => {
        const { buf, fields } = await readXlsxUpload(req);
        let creditId: number | undefined;
        if (fields.platCredBizCode) {
          if (!/^\d{12}$/.test(fields.platCredBizCode)) throw badInput('平台授信编号必须是12位数字编号');
          creditId = (await getCredit(db, fields.platCredBizCode)).id;
        }
        return previewContractReceivables(db, buf, clock.today(), creditId);
      },
    );
    api.post(
      p(CONTRACT_PATHS.resolvePlanExcel),
      {
        perm: [...editors, button(CHG, 'save'), button(CHG, 'add')],
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
    const chgEditors = [button(CHG, 'add'), button(CHG, 'save')];
    api.post(
      p(CONTRACT_PATHS.changeSave),
      { perm: chgEditors, body: changeSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          if (body.bizCode) await assertEditable(tx, 'contractChange', body.bizCode);
          const { code, row } = await saveChange(tx, body, actor, clock.today(), user);
          const flow = body.submit
            ? await submit(tx, {
                type: 'contractChange',
                code,
                subject: `合同变更 ${row.contractNo} ${row.custName}`,
                amount: body.info.financingAmount ?? row.financingAmount,
                actor,
              })
            : null;
          const { change } = await findChange(tx, code);
          return { bizCode: code, version: change.version, state: change.state, flow };
        }),
    );
    api.post(
      p(CONTRACT_PATHS.changeView),
      { perm: menu(CHG), query: changeCodeQuery },
      async ({ query, user }) => {
        const { change, contract } = await findChange(db, query.bizCode, user);
        return changeView(change, contract);
      },
    );
    api.post(p(CONTRACT_PATHS.changeList), { perm: menu(CHG), body: changeListSchema }, ({ body, user }) =>
      listChanges(db, body, user),
    );
    api.post(
      p(CONTRACT_PATHS.changeDelete),
      { perm: button(CHG, 'delete'), query: changeCodeQuery },
      ({ query, actor, user }) =>
        db.transaction(async (tx) => {
          await findChange(tx, query.bizCode, user);
          await assertDeletable(tx, 'contractChange', query.bizCode);
          await deleteChange(tx, (await findChange(tx, query.bizCode)).change, actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'contractChange',
      audit: { path: p(CONTRACT_PATHS.changeAudit), perm: button(CHG, 'audit') },
      unAudit: { path: p(CONTRACT_PATHS.changeUnAudit), perm: button(CHG, 'unAudit') },
    });
    const chgView = <
      K extends 'info' | 'plan' | 'dues' | 'business' | 'fileTokens' | 'payers' | 'receivables',
    >(
      path: string,
      section: K,
    ) =>
      api.post(p(path), { perm: menu(CHG), query: changeCodeQuery }, async ({ query, user }) => {
        const { change, contract } = await findChange(db, query.bizCode, user);
        return beforeAfter(db, change, contract, section, clock.today());
      });
    chgView(CONTRACT_PATHS.chgInfoView, 'info');
    chgView(CONTRACT_PATHS.chgSchemeView, 'plan');
    chgView(CONTRACT_PATHS.chgDueView, 'dues');
    chgView(CONTRACT_PATHS.chgBusinessView, 'business');
    chgView(CONTRACT_PATHS.chgFileView, 'fileTokens');
    chgView(CONTRACT_PATHS.chgPayerInfo, 'payers');

    // ---- Handover sheets
    api.post(p(HANDOVER_PATHS.list), { perm: menu(HO), body: handoverListSchema }, ({ body, user }) =>
      listHandovers(db, body, user),
    );
    api.post(p(HANDOVER_PATHS.view), { perm: menu(HO), query: handoverViewQuery }, ({ query, user }) =>
      viewHandover(db, query.bizCode, user, query),
    );
    api.post(
      p(HANDOVER_PATHS.init),
      { perm: [button(HO, 'add'), button(HO, 'save')], query: contBizCodeQuery },
      async ({ query, user }) =>
        handoverInit(db, await findContract(db, query.contBizCode, user), clock.today()),
    );
    api.post(
      p(HANDOVER_PATHS.save),
      { perm: [button(HO, 'add'), button(HO, 'save')], body: handoverSaveSchema },
      ({ body, actor, user }) =>
        db.transaction(async (tx) => {
          if (body.bizCode) await assertEditable(tx, 'handover', body.bizCode);
          const { code, row } = await saveHandover(tx, body, actor, user, clock.today());
          const flow = body.submit
            ? await submit(tx, {
                type: 'handover',
                code,
                subject: `资料交接单 ${row.contractNo} ${row.custName}`,
                actor,
              })
            : null;
          const { h } = await findHandover(tx, code);
          return { bizCode: code, version: h.version, state: h.state, flow };
        }),
    );
    api.post(
      p(HANDOVER_PATHS.del),
      { perm: button(HO, 'delete'), query: handoverCodeQuery },
      ({ query, actor, user }) =>
        db.transaction(async (tx) => {
          await findHandover(tx, query.bizCode, user);
          await assertDeletable(tx, 'handover', query.bizCode);
          await deleteHandover(tx, (await findHandover(tx, query.bizCode)).h, actor);
          return null;
        }),
    );
    auditRoutes(api, db, {
      type: 'handover',
      audit: { path: p(HANDOVER_PATHS.audit), perm: button(HO, 'audit') },
      unAudit: { path: p(HANDOVER_PATHS.unAudit), perm: button(HO, 'unAudit') },
    });
  },
};
