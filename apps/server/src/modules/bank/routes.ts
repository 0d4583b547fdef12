import { BANK_PATHS, bankBizCodeQuery, bankListSchema, bankSaveSchema } from '@portal/contract/bank';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { permAllows } from '../../platform/http/route';
import { noPermission } from '../../platform/errors';
import { registerCompanyUsageCheck } from '../company/service';
import { seedDemoAccounts } from './demo';
import {
  bankDict,
  countCustomerAccounts,
  deleteAccount,
  listAccounts,
  saveAccount,
  seedBanks,
  setDefaultAccount,
  viewAccount,
} from './service';

const p = (path: string) => `/api${path}`;
// The factoring config screen (ft-bank) and the CRM bank screen (crm-cor-bank) share these calls.
const FT = 'ft-bank';
const CRM = 'crm-cor-bank';

export const bankModule: PortalModule = {
  name: 'bank',
  register({ api, db }) {
    registerCompanyUsageCheck(async (ex, compCode) => {
      const n = await countCustomerAccounts(ex, compCode);
      return n > 0 ? `存在${n}个银行账户` : null;
    });
    api.post(p(BANK_PATHS.list), { perm: [menu(FT), menu(CRM)], body: bankListSchema }, async ({ body }) =>
      listAccounts(db, body),
    );
    api.post(
      p(BANK_PATHS.view),
      { perm: [menu(FT), menu(CRM)], query: bankBizCodeQuery },
      async ({ query }) => viewAccount(db, query.bizCode),
    );
    api.post(
      p(BANK_PATHS.save),
      {
        perm: [button(FT, 'add'), button(FT, 'save'), button(CRM, 'add'), button(CRM, 'save')],
        body: bankSaveSchema,
      },
      async ({ body, user, actor }) => {
        // A new account needs 新增, a change needs 保存.
        const action = body.bizCode ? 'save' : 'add';
        if (permAllows([button(FT, action), button(CRM, action)], user) !== 'ok') throw noPermission();
        return saveAccount(db, body, actor);
      },
    );
    api.post(
      p(BANK_PATHS.del),
      { perm: [button(FT, 'delete'), button(CRM, 'delete')], query: bankBizCodeQuery },
      async ({ query, actor }) => {
        await deleteAccount(db, query.bizCode, actor);
        return null;
      },
    );
    api.post(
      p(BANK_PATHS.setDefault),
      { perm: [button(FT, 'setDefault'), button(CRM, 'setDefault')], query: bankBizCodeQuery },
      async ({ query, actor }) => {
        await setDefaultAccount(db, query.bizCode, actor);
        return null;
      },
    );
    api.post(p(BANK_PATHS.dict), { perm: 'session' }, async () => bankDict(db));
  },
  seed: ({ db }) => seedBanks(db),
  demo: seedDemoAccounts,
};
