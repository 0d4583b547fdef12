import { button, menu } from '@portal/contract/menus';
import { REGULATOR_MENU, REGULATOR_PATHS as P, regulatorSchema } from '@portal/contract/regulator';
import type { PortalModule } from '../../platform/module';
import { streamRegulator } from './export';
import { regulatorReport } from './service';

/** The regulator's figures are the office's, not a customer's or an organisation's: no row scope narrows them. */
const OFFICE = { none: 'the figures of the whole office, reported to its regulator' };

/** 监管报表 (docs/ledger.md "The regulator's figures"): read-only, from the ledger of the month's last business date. */
export const regulatorModule: PortalModule = {
  name: 'regulator',
  register({ api, db, clock }) {
    api.post(P.report, { perm: menu(REGULATOR_MENU), scope: OFFICE, body: regulatorSchema }, ({ body }) =>
      regulatorReport(db, body, clock.today()),
    );
    api.post(
      P.export,
      {
        perm: button(REGULATOR_MENU, 'export'),
        scope: OFFICE,
        body: regulatorSchema,
        raw: true,
        summary: '监管报表.xlsx',
      },
      async ({ body, reply }) => streamRegulator(reply, await regulatorReport(db, body, clock.today())),
    );
  },
};
