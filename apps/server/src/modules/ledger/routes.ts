import {
  LEDGER_MENUS as M,
  LEDGER_PATHS as P,
  ledgerExportSchema,
  ledgerListSchema,
  statementSchema,
} from '@portal/contract/ledger';
import { button, menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import { listOf, type ScopedRows } from '../../platform/http/route-scope';
import { sendStatement, streamLedger } from './export';
import { classDistribution } from './distribution';
import { ledgerBatches, ledgerPage } from './service';
import {
  CLASS_MENU,
  CLASS_PATHS,
  classDistributionQuery,
  classMigrationQuery,
} from '@portal/contract/classification';
import { classMigration } from '../classification';
import { statement } from './statement';

/** A statement names a customer or a contract; both must be in the user's scope. */
const STATEMENT_OF: ScopedRows[] = [
  { kind: 'customer', params: ['custCode'] },
  { kind: 'contract', params: ['contBizCode'] },
];

/**
 * 保理业务台账 and 客户对账单 (docs/ledger.md): read-only outputs computed from the posted figures.
 * The ledger lists contracts, narrowed to the user's data scope like the contract list.
 */
export const ledgerModule: PortalModule = {
  name: 'ledger',
  register({ api, db, clock }) {
    api.post(
      P.list,
      { perm: menu(M.portfolio), scope: listOf('contract'), body: ledgerListSchema },
      ({ body, user }) => ledgerPage(db, user, body, clock.today()),
    );
    api.post(
      P.export,
      {
        perm: button(M.portfolio, 'export'),
        scope: listOf('contract'),
        body: ledgerExportSchema,
        raw: true,
        summary: '保理业务台账.xlsx',
      },
      async ({ body, user, reply }) =>
        streamLedger(reply, await ledgerBatches(db, user, body, clock.today())),
    );
    // 五级分类 distribution and migration (docs/classification.md): on the 台账, the 五级分类 screen and
    // the 工作 dashboard (whose figures are the contract list's: its menu reads them too).
    const classReaders = [menu(M.portfolio), menu(CLASS_MENU), menu('ft-contract-info')];
    api.post(
      CLASS_PATHS.distribution,
      { perm: classReaders, scope: listOf('contract'), body: classDistributionQuery },
      ({ body, user }) => classDistribution(db, user, body.asOf, clock.today()),
    );
    api.post(
      CLASS_PATHS.migration,
      { perm: classReaders, scope: listOf('contract'), body: classMigrationQuery },
      ({ body, user }) => classMigration(db, body.fromMonth, body.toMonth, user),
    );
    api.post(
      P.statement,
      { perm: menu(M.statement), scope: STATEMENT_OF, body: statementSchema },
      ({ body, user }) => statement(db, user, body),
    );
    api.post(
      P.statementExport,
      {
        perm: button(M.statement, 'export'),
        scope: STATEMENT_OF,
        body: statementSchema,
        raw: true,
        summary: '客户对账单.xlsx',
      },
      async ({ body, user, reply }) => sendStatement(reply, await statement(db, user, body)),
    );
  },
};
