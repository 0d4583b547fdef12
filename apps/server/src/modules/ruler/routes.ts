import { button, menu } from '@portal/contract/menus';
import {
  RULER_PATHS,
  ruleDelQuery,
  ruleListSchema,
  ruleSaveSchema,
  ruleViewQuery,
} from '@portal/contract/ruler';
import type { PortalModule } from '../../platform/module';
import { permAllows } from '../../platform/http/route';
import { noPermission } from '../../platform/errors';
import { RULE_USAGE, deleteRule, listRules, ruleDict, saveRule, viewRule } from './service';
import { seedDemoRules } from './demo';

import { UNSCOPED } from '../../platform/http/route-scope';

const RULER = 'ft-ruler';
// A contract's business config is edited from the contract editor.
const CONTRACT = 'ft-contract-info';

export const rulerModule: PortalModule = {
  name: 'ruler',
  register({ api, db, registries }) {
    api.post(
      RULER_PATHS.list,
      { perm: [menu(RULER), menu(CONTRACT)], scope: UNSCOPED.reference, body: ruleListSchema },
      async ({ body }) => listRules(db, body),
    );
    api.post(
      RULER_PATHS.view,
      { perm: [menu(RULER), menu(CONTRACT)], scope: UNSCOPED.reference, query: ruleViewQuery },
      async ({ query }) => viewRule(db, query),
    );
    api.post(RULER_PATHS.dict, { perm: 'session', scope: UNSCOPED.picker }, async () => ruleDict(db));
    api.post(
      RULER_PATHS.save,
      {
        perm: [button(RULER, 'save'), button(RULER, 'add'), button(CONTRACT, 'save')],
        // A catalogue rule is reference data; a contract's own config belongs to its contract.
        scope: { kind: 'contract', params: ['contBizCode'] },
        body: ruleSaveSchema,
      },
      async ({ body, user, actor }) => {
        // Catalogue rules need the rule buttons; a contract's own config needs the contract's.
        const needed = body.contBizCode
          ? button(CONTRACT, 'save')
          : button(RULER, body.bizCode ? 'save' : 'add');
        if (permAllows(needed, user) !== 'ok') throw noPermission();
        return saveRule(db, body, actor);
      },
    );
    api.post(
      RULER_PATHS.del,
      { perm: button(RULER, 'delete'), scope: UNSCOPED.reference, query: ruleDelQuery },
      async ({ query, actor }) => {
        await deleteRule(db, query.bizCode, actor, registries.get(RULE_USAGE));
        return null;
      },
    );
  },
  demo: seedDemoRules,
};
