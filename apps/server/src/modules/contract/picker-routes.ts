import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import {
  contBizCodeQuery,
  CONTRACT_PATHS,
  contractCodeQuery,
  custCodeQuery,
  platCredQuery,
  type CompanyMember,
  type ContractInit,
} from '@portal/contract/contract';
import { REPAY_PURPOSES } from '@portal/contract/bank';
import { button, menu } from '@portal/contract/menus';
import type { ModuleContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { badInput, notFound } from '../../platform/errors';
import { UNSCOPED, type RouteScope } from '../../platform/http/route-scope';
import { getCustomer, viewCompany } from '../company';
import { listAccounts } from '../bank';
import { getCredit, linesOfCustomer } from '../credit';
import { creditReceivables } from '../credit/schema';
import { findContract, payersOf, toReceivable } from './queries';
import { prepaymentInit } from './prepayment-init';
import { changeInit } from './change';
import { CHG, EDITORS, INFO, READERS } from './route-perms';

/** The credit lines of the customer a contract form picked, whoever manages the customer. */
const PICKED_CUSTOMER: RouteScope = { none: 'the lines of the customer a contract form picked: a picker' };

/** What the contract form picks from (customers, accounts, lines, members) and the initialisations. */
export function registerPickerRoutes({ api, db, clock }: ModuleContext): void {
  api.post(CONTRACT_PATHS.custList, { perm: READERS, scope: UNSCOPED.picker }, async () =>
    // One row per approved platform credit: the editor picks the credit, the customer follows.
    queryRows<{ custCode: string; custName: string; credBizCode: string; endDate: string }>(
      db,
      sql`select c.cust_code as "custCode", c.cust_name as "custName", c.biz_code as "credBizCode",
                 to_char(c.end_date, 'YYYY-MM-DD') as "endDate"
            from credits c where c.state = 'approved' and c.deleted_at is null order by c.cust_name, c.biz_code`,
    ),
  );
  api.post(CONTRACT_PATHS.bank, { perm: READERS, scope: UNSCOPED.picker }, async () => {
    const res = await listAccounts(db, { ownerType: 'self', pageNum: 1, pageSize: 500 } as Parameters<
      typeof listAccounts
    >[1]);
    // A 付款账户 is never offered as 还款账户 (and is refused on save, contract/service.ts).
    return res.list.filter((a) => REPAY_PURPOSES.includes(a.purpose));
  });
  // The customer's whole record (its files too): only within the scope over customers.
  api.post(
    CONTRACT_PATHS.compInfo,
    { perm: READERS, scope: 'customer', query: custCodeQuery },
    async ({ query }) => viewCompany(db, query.custCode),
  );
  api.post(
    CONTRACT_PATHS.init,
    {
      perm: EDITORS,
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
    { perm: READERS, scope: PICKED_CUSTOMER, query: custCodeQuery },
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
    { perm: READERS, scope: UNSCOPED.picker },
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
    { perm: [...READERS, menu('ft-pa-mgr'), menu('ft-paid')], scope: 'contract', query: contBizCodeQuery },
    async ({ query, user }) => payersOf(db, (await findContract(db, query.contBizCode, user)).id),
  );
}
