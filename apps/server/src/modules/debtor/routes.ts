import { button, menu } from '@portal/contract/menus';
import {
  DEBTOR_CONC_MENU,
  DEBTOR_LINE_MENU,
  DEBTOR_MATCH_MENU,
  DEBTOR_PATHS as P,
  debtorDictSchema,
  debtorLineDecideSchema,
  debtorLineQuery,
  debtorLineSaveSchema,
  debtorResolveSchema,
} from '@portal/contract/debtor';
import type { PortalModule } from '../../platform/module';
import { listOf, UNSCOPED } from '../../platform/http/route-scope';
import { seedDemoDebtor } from './demo';
import { DEBTOR_LINKERS } from './link';
import { listLines, passLine, rejectLine, saveLine, viewLine } from './lines';
import { concentration, debtorDict, listUnmatched, resolveName } from './service';

/** A debtor line spans every seller's contracts: it has no owner to scope by. */
const NO_OWNER = { none: 'a debtor line is one per debtor across all sellers: no owner row' } as const;
/** Names of credits and contracts: narrowed to the user's scope in the handler. */
const OF_DOCUMENTS = [listOf('credit'), listOf('contract')];

/**
 * Debtors (docs/credit.md "Debtors"): the picker every debtor field chooses from, 债务人待匹配
 * (names not linked to a customer yet), 债务人额度 (lines across all sellers, proposed by one
 * person and approved by another) and the concentration of exposure by debtor.
 */
export const debtorModule: PortalModule = {
  name: 'debtor',
  register({ api, db, clock, registries }) {
    const linkers = registries.get(DEBTOR_LINKERS);
    const pickers = [
      DEBTOR_MATCH_MENU,
      DEBTOR_LINE_MENU,
      'ft-credit-info',
      'ft-credit-chg',
      'ft-contract-info',
      'ft-contract-chg',
      'ft-income',
      'ft-paid',
    ].map(menu);
    api.post(P.dict, { perm: pickers, scope: UNSCOPED.picker, body: debtorDictSchema }, ({ body }) =>
      debtorDict(db, body.all ?? false),
    );
    api.post(P.unmatched, { perm: menu(DEBTOR_MATCH_MENU), scope: OF_DOCUMENTS }, ({ user }) =>
      listUnmatched(db, user),
    );
    api.post(
      P.resolve,
      {
        perm: button(DEBTOR_MATCH_MENU, 'save'),
        scope: {
          none: 'links the name only on credits and contracts in the caller’s row scope (each linker)',
        },
        body: debtorResolveSchema,
      },
      ({ body, user, actor }) => resolveName(db, linkers, body, user, actor, clock.today()),
    );
    const lineReaders = [menu(DEBTOR_LINE_MENU), menu(DEBTOR_CONC_MENU)];
    api.post(P.lines, { perm: lineReaders, scope: NO_OWNER }, () => listLines(db));
    // The line is no one's; the movements of contracts outside the reader's scope are anonymised (lines.ts).
    api.post(P.line, { perm: lineReaders, scope: NO_OWNER, query: debtorLineQuery }, ({ query, user }) =>
      viewLine(db, query.bizCode, user),
    );
    api.post(
      P.saveLine,
      { perm: button(DEBTOR_LINE_MENU, 'save'), scope: NO_OWNER, body: debtorLineSaveSchema },
      ({ body, actor }) => saveLine(db, body, actor),
    );
    api.post(
      P.passLine,
      {
        perm: button(DEBTOR_LINE_MENU, 'pass'),
        scope: NO_OWNER,
        query: debtorLineQuery,
        body: debtorLineDecideSchema,
      },
      ({ query, body, actor }) => passLine(db, query.bizCode, body.version, actor, clock.today()),
    );
    api.post(
      P.rejectLine,
      {
        perm: button(DEBTOR_LINE_MENU, 'reject'),
        scope: NO_OWNER,
        query: debtorLineQuery,
        body: debtorLineDecideSchema,
      },
      ({ query, body, actor }) => rejectLine(db, query.bizCode, body.version, actor),
    );
    api.post(P.concentration, { perm: menu(DEBTOR_CONC_MENU), scope: listOf('contract') }, ({ user }) =>
      concentration(db, user),
    );
  },
  demo: seedDemoDebtor,
};
