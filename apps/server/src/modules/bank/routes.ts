import { ADMISSION_MENU } from '@portal/contract/admission';
import { BANK_PATHS, bankBizCodeQuery, bankListSchema, bankSaveSchema } from '@portal/contract/bank';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { BANK_SCOPE_KINDS } from './scope-kinds';
import { permAllows } from '../../platform/http/route';
import { noPermission } from '../../platform/errors';
import { COMPANY_USAGE } from '../company';
import { seedDemoAccounts } from './demo';
import {
  bankDict,
  countCustomerAccounts,
  BANK_ACCOUNT_USAGE,
  deleteAccount,
  listAccounts,
  saveAccount,
  seedBanks,
  setDefaultAccount,
  viewAccount,
} from './service';

import { listOf, UNSCOPED } from '../../platform/http/route-scope';
import { eq, or } from 'drizzle-orm';
import { tableScope } from '../../platform/auth/row-scope';
import { bankAccounts } from './schema';

// The factoring config screen (ft-bank) and the CRM bank screen (crm-cor-bank) share these calls.
const FT = 'ft-bank';
const CRM = 'crm-cor-bank';

export const bankModule: PortalModule = {
  name: 'bank',
  scopeKinds: BANK_SCOPE_KINDS,
  register({ api, registries, db }) {
    registries.get(COMPANY_USAGE).add(async (ex, compCode) => {
      const n = await countCustomerAccounts(ex, compCode);
      return n > 0 ? `存在${n}个银行账户` : null;
    });
    api.post(
      BANK_PATHS.list,
      // 客户准入 picks the customer's account its bank proof shows (docs/admission.md).
      {
        perm: [menu(FT), menu(CRM), menu(ADMISSION_MENU)],
        scope: listOf('bankAccount'),
        body: bankListSchema,
      },
      // Our own accounts are the company's: listed for everyone (bank/scope-kinds.ts bankAccount).
      async ({ body, user }) =>
        listAccounts(db, body, or(eq(bankAccounts.ownerType, 'self'), tableScope(user, bankAccounts))),
    );
    api.post(
      BANK_PATHS.view,
      { perm: [menu(FT), menu(CRM)], scope: 'bankAccount', query: bankBizCodeQuery },
      async ({ query }) => viewAccount(db, query.bizCode),
    );
    api.post(
      BANK_PATHS.save,
      {
        perm: [button(FT, 'add'), button(FT, 'save'), button(CRM, 'add'), button(CRM, 'save')],
        // The account, and the customer it is saved for: both only within the user's scope.
        scope: ['bankAccount', { kind: 'customer', params: ['ownerCode'] }],
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
      BANK_PATHS.del,
      { perm: [button(FT, 'delete'), button(CRM, 'delete')], scope: 'bankAccount', query: bankBizCodeQuery },
      async ({ query, actor }) => {
        await deleteAccount(db, query.bizCode, actor, registries.get(BANK_ACCOUNT_USAGE));
        return null;
      },
    );
    api.post(
      BANK_PATHS.setDefault,
      {
        perm: [button(FT, 'setDefault'), button(CRM, 'setDefault')],
        scope: 'bankAccount',
        query: bankBizCodeQuery,
      },
      async ({ query, actor }) => {
        await setDefaultAccount(db, query.bizCode, actor);
        return null;
      },
    );
    api.post(BANK_PATHS.dict, { perm: 'session', scope: UNSCOPED.reference }, async () => bankDict(db));
  },
  seed: ({ db }) => seedBanks(db),
  demo: seedDemoAccounts,
};
