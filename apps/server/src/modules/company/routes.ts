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
import { streamCompanyExport } from './export';
import {
  addCompany,
  checkUscc,
  companyDict,
  deleteCompany,
  findSupComp,
  infoDict,
  listCompanies,
  setCompanyState,
  updateCompany,
  viewCompany,
} from './service';
import { seedDemoCompanies } from './demo';

const p = (path: string) => `/api${path}`;
// The factoring config screen (ft-company) and the CRM screens (crm-cor-cor…) share these calls.
const FT = 'ft-company';
const CRM = 'crm-cor-cor';

export const companyModule: PortalModule = {
  name: 'company',
  register({ api, db }) {
    const viewers = [menu(FT), menu(CRM), menu('crm-cor-cor-e'), menu('crm-cor-cor-v')];
    api.post(
      p(COMPANY_PATHS.list),
      { perm: [menu(FT), menu(CRM)], body: companyListSchema },
      async ({ body }) => listCompanies(db, body),
    );
    api.post(
      p(COMPANY_PATHS.listExport),
      {
        perm: [button(FT, 'export'), button(CRM, 'export')],
        body: companyExportSchema,
        raw: true,
        summary: '企业客户明细表.xlsx',
      },
      async ({ body, reply }) => streamCompanyExport(db, body, reply),
    );
    // Pickers in other screens (contracts, credit, bank accounts) need the names.
    api.post(p(COMPANY_PATHS.dict), { perm: 'session', body: companyDictSchema }, async ({ body }) =>
      companyDict(db, body),
    );
    api.post(p(COMPANY_PATHS.infoDict), { perm: 'session' }, async () => infoDict());
    api.post(
      p(COMPANY_PATHS.add),
      { perm: [button(FT, 'add'), button(CRM, 'add')], body: companyAddSchema },
      async ({ body, actor }) => addCompany(db, body, actor),
    );
    api.post(
      p(COMPANY_PATHS.update),
      {
        perm: [button(FT, 'update'), button(CRM, 'update'), button('crm-cor-cor-e', 'save')],
        body: companyUpdateSchema,
      },
      async ({ body, actor }) => updateCompany(db, body, actor),
    );
    api.post(p(COMPANY_PATHS.view), { perm: viewers, query: compCodeQuery }, async ({ query }) =>
      viewCompany(db, query.compCode),
    );
    api.post(
      p(COMPANY_PATHS.del),
      { perm: [button(FT, 'delete'), button(CRM, 'delete')], query: compCodeQuery },
      async ({ query, actor }) => {
        await deleteCompany(db, query.compCode, actor);
        return null;
      },
    );
    api.post(
      p(COMPANY_PATHS.enable),
      { perm: [button(FT, 'enable'), button(CRM, 'enable')], query: compCodeQuery },
      async ({ query, actor }) => {
        await setCompanyState(db, query.compCode, 'enabled', actor);
        return null;
      },
    );
    api.post(
      p(COMPANY_PATHS.disable),
      { perm: [button(FT, 'disable'), button(CRM, 'disable')], query: compCodeQuery },
      async ({ query, actor }) => {
        await setCompanyState(db, query.compCode, 'disabled', actor);
        return null;
      },
    );
    api.post(p(COMPANY_PATHS.supCompFind), { perm: 'session', query: supCompQuery }, async ({ query }) =>
      findSupComp(db, query.compName),
    );
    api.post(p(COMPANY_PATHS.checkUscc), { perm: 'session', body: checkUsccSchema }, async ({ body }) =>
      checkUscc(db, body.usccCode, body.compCode),
    );
  },
  demo: seedDemoCompanies,
};
