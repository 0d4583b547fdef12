import { DASHBOARD_PATHS, trendQuery } from '@portal/contract/dashboard';
import { menu } from '@portal/contract/menus';
import type { PortalModule } from '../../platform/module';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { listOf } from '../../platform/http/route-scope';
import { createPortfolioCache, scopeKey } from './cache';
import { aging, overdueItemsOf, portfolio, trend } from './service';

export const dashboardModule: PortalModule = {
  name: 'dashboard',
  register({ api, db, clock }) {
    const perm = menu('ft-contract-info');
    const cached = createPortfolioCache(db);
    const key = (widget: string, user: ScopeUser, ...more: unknown[]) =>
      [widget, scopeKey(user), clock.today(), ...more].join('|');
    // The overdue items are computed once per scope, date and epoch, for both widgets.
    const overdue = (user: ScopeUser) =>
      cached(key('overdue', user), () => overdueItemsOf(db, user, clock.today()));
    api.post(DASHBOARD_PATHS.portfolio, { perm, scope: listOf('contract') }, ({ user }) =>
      cached(key('portfolio', user), async () => portfolio(db, user, clock.today(), await overdue(user))),
    );
    api.post(DASHBOARD_PATHS.aging, { perm, scope: listOf('contract') }, ({ user }) =>
      cached(key('aging', user), async () => aging(await overdue(user))),
    );
    api.post(DASHBOARD_PATHS.trend, { perm, scope: listOf('contract'), body: trendQuery }, ({ user, body }) =>
      cached(key('trend', user, body.months), () => trend(db, user, clock.today(), body.months)),
    );
  },
};
