import { ADMISSION_MENU } from '@portal/contract/admission';
import {
  checkUsccSchema,
  COMPANY_PATHS,
  companyAddSchema,
  companyDictSchema,
  companyExportSchema,
  companyListSchema,
  companyUpdateSchema,
  compCodeQuery,
  supCompQuery,
} from '@portal/contract/company';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { COMPANY_SCOPE_KINDS } from './scope-kinds';
import { streamListExport } from '../../platform/http/export';
import { companyExport } from './export';
import { companyDict, companyRows, findSupComp, infoDict, listCompanies, viewCompany } from './queries';
import {
  addCompany,
  checkUscc,
  COMPANY_USAGE,
  deleteCompany,
  setCompanyState,
  updateCompany,
} from './service';
import { seedDemoCompanies } from './demo';

import {
  PERMIT_AREA_MENU,
  PERMIT_CHG_MENU,
  PERMIT_USER_AREA_MENU,
  PERMIT_USER_AREAS,
} from '@portal/contract/permit';
import { listOf, UNSCOPED } from '../../platform/http/route-scope';
import { tableScope } from '../../platform/auth/row-scope';
import { companies } from './schema';

// The factoring config screen (ft-company) and the CRM screens (crm-cor-cor…) share these calls.
const FT = 'ft-company';
const CRM = 'crm-cor-cor';

/** The customer forms (parent enterprise picker, USCC check). */
const CUSTOMER_EDITORS = [
  button(FT, 'add'),
  button(FT, 'update'),
  button(CRM, 'add'),
  button(CRM, 'update'),
  button('crm-cor-cor-e', 'save'),
];
/** The screens whose forms pick a customer from comp/list/dict. */
const CUSTOMER_PICKERS = [
  ...[FT, CRM, 'crm-cor-cor-e', 'crm-cor-cor-v', 'crm-cor-bank', 'crm-cor-rel', 'crm-cor-org'].map(menu),
  ...['crm-cor-info', 'crm-cor-mg', 'ft-bank', PERMIT_CHG_MENU, ...Object.values(PERMIT_AREA_MENU)].map(menu),
  // 台账 and 对账单 filter by customer (docs/ledger.md).
  ...['ft-ledger-portfolio', 'ft-ledger-statement'].map(menu),
  // 客户准入 picks the (pending) customer it admits (docs/admission.md).
  menu(ADMISSION_MENU),
  ...PERMIT_USER_AREAS.map((a) => menu(PERMIT_USER_AREA_MENU[a]!)),
];

export const companyModule: PortalModule = {
  name: 'company',
  scopeKinds: COMPANY_SCOPE_KINDS,
  register({ api, db, registries }) {
    const viewers = [menu(FT), menu(CRM), menu('crm-cor-cor-e'), menu('crm-cor-cor-v')];
    api.post(
      COMPANY_PATHS.list,
      { perm: [menu(FT), menu(CRM)], scope: listOf('customer'), body: companyListSchema },
      async ({ body, user }) => listCompanies(db, body, tableScope(user, companies)),
    );
    api.post(
      COMPANY_PATHS.listExport,
      {
        perm: [button(FT, 'export'), button(CRM, 'export')],
        scope: listOf('customer'),
        body: companyExportSchema,
        raw: true,
        summary: '企业客户明细表.xlsx',
      },
      async ({ body, reply, user }) => {
        const scope = tableScope(user, companies);
        return streamListExport(
          reply,
          companyExport((pageNum, pageSize) => companyRows(db, { ...body, pageNum, pageSize }, scope)),
        );
      },
    );
    // Pickers in other screens (customer forms, bank accounts, CRM, admission) need the names.
    api.post(
      COMPANY_PATHS.dict,
      { perm: CUSTOMER_PICKERS, scope: UNSCOPED.picker, body: companyDictSchema },
      async ({ body }) => companyDict(db, body),
    );
    api.post(COMPANY_PATHS.infoDict, { perm: 'session', scope: UNSCOPED.reference }, async () => infoDict());
    api.post(
      COMPANY_PATHS.add,
      {
        perm: [button(FT, 'add'), button(CRM, 'add')],
        scope: { none: 'a new customer belongs to the maker’s organisation (stamped by the database)' },
        body: companyAddSchema,
      },
      async ({ body, actor }) => addCompany(db, body, actor),
    );
    api.post(
      COMPANY_PATHS.update,
      {
        perm: [button(FT, 'update'), button(CRM, 'update'), button('crm-cor-cor-e', 'save')],
        scope: 'customer',
        body: companyUpdateSchema,
      },
      async ({ body, actor }) => updateCompany(db, body, actor),
    );
    api.post(
      COMPANY_PATHS.view,
      { perm: viewers, scope: 'customer', query: compCodeQuery },
      async ({ query }) => viewCompany(db, query.compCode),
    );
    api.post(
      COMPANY_PATHS.del,
      { perm: [button(FT, 'delete'), button(CRM, 'delete')], scope: 'customer', query: compCodeQuery },
      async ({ query, actor }) => {
        await deleteCompany(db, query.compCode, actor, registries.get(COMPANY_USAGE));
        return null;
      },
    );
    api.post(
      COMPANY_PATHS.enable,
      { perm: [button(FT, 'enable'), button(CRM, 'enable')], scope: 'customer', query: compCodeQuery },
      async ({ query, actor }) => {
        await setCompanyState(db, query.compCode, 'enabled', actor);
        return null;
      },
    );
    api.post(
      COMPANY_PATHS.disable,
      { perm: [button(FT, 'disable'), button(CRM, 'disable')], scope: 'customer', query: compCodeQuery },
      async ({ query, actor }) => {
        await setCompanyState(db, query.compCode, 'disabled', actor);
        return null;
      },
    );
    api.post(
      COMPANY_PATHS.supCompFind,
      { perm: CUSTOMER_EDITORS, scope: UNSCOPED.picker, query: supCompQuery },
      async ({ query }) => findSupComp(db, query.compName),
    );
    api.post(
      COMPANY_PATHS.checkUscc,
      {
        perm: CUSTOMER_EDITORS,
        scope: { none: 'tells a customer form whether a USCC is taken, whoever manages that customer' },
        body: checkUsccSchema,
      },
      async ({ body }) => checkUscc(db, body.usccCode, body.compCode),
    );
  },
  demo: seedDemoCompanies,
};
