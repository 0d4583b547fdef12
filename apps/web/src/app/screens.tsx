import { CONTRACT_PATHS } from '@portal/contract/contract-paths';
import { prefetchListPage } from '../shared/list/list-query';
import { findRoute } from '../shared/routing/route-table';
import { lazyScreen, type LazyScreen } from '../shared/ui/screen';
import { AntdShell, ManagementLayout, WebsiteLayout } from './layout/layouts';
import { CRM_SCREENS } from '../features/crm/screens';
import { CRM_CHANGE_SCREENS } from '../features/crm-change/screens';
import { ADMISSION_SCREENS } from '../features/admission/screens';
import { PERMIT_SCREENS } from '../features/permit/screens';
import { queryClient } from './query-client';
import { useSessionStore } from '../shared/session/session-store';

/**
 * Route path -> lazily loaded screen. A business feature registers its screen here with one line;
 * every route of the menu catalogue without an entry shows the 功能建设中 placeholder.
 * Each screen receives `{ meta }` (ScreenProps of src/shared/ui/screen.ts).
 */
export const SCREENS: Record<string, LazyScreen> = {
  ...CRM_SCREENS,
  ...CRM_CHANGE_SCREENS,
  ...ADMISSION_SCREENS,
  '/dashboard': lazyScreen(() => import('../features/dashboard/DashboardPage')),
  '/factoring/config/company': lazyScreen(() => import('../features/company/CompanyListPage')),
  '/factoring/config/company-editor': lazyScreen(() => import('../features/company/CompanyEditorPage')),
  '/factoring/config/bank': lazyScreen(() => import('../features/bank/BankListPage')),
  '/factoring/config/ruler': lazyScreen(() => import('../features/ruler/RulerListPage')),
  '/factoring/config/ruler-editor': lazyScreen(() => import('../features/ruler/RulerEditorPage')),
  '/factoring/config/process': lazyScreen(() => import('../features/workflow/ProcessPage')),
  '/factoring/config/bizdate': lazyScreen(() => import('../features/bizdate/BizDatePage')),
  '/factoring/credit/info': lazyScreen(() => import('../features/credit/CreditListPage')),
  '/factoring/credit/info-editor': lazyScreen(() => import('../features/credit/CreditEditorPage')),
  '/factoring/credit/info-view': lazyScreen(() => import('../features/credit/CreditViewPage')),
  '/factoring/credit/distribution': lazyScreen(() => import('../features/credit/DistributionListPage')),
  '/factoring/credit/distribution-editor': lazyScreen(
    () => import('../features/credit/DistributionEditorPage'),
  ),
  '/factoring/credit/distribution-view': lazyScreen(() => import('../features/credit/DistributionViewPage')),
  '/factoring/credit/change': lazyScreen(() => import('../features/credit/ChangeListPage')),
  '/factoring/credit/change-editor': lazyScreen(() => import('../features/credit/ChangeEditorPage')),
  '/factoring/credit/change-view': lazyScreen(() => import('../features/credit/ChangeViewPage')),
  '/permission/role': lazyScreen(() => import('../features/permission/RolePage')),
  '/permission/org': lazyScreen(() => import('../features/permission/OrgPage')),
  '/permission/user': lazyScreen(() => import('../features/permission/UserPage')),
  '/monitor/operlog': lazyScreen(() => import('../features/monitor/OperLogPage')),
  '/monitor/logininfor': lazyScreen(() => import('../features/monitor/LoginLogPage')),
  '/monitor/online': lazyScreen(() => import('../features/monitor/OnlinePage')),
  '/system/config': lazyScreen(() => import('../features/system/ParamsPage')),
  '/system/notice': lazyScreen(() => import('../features/notices/NoticePage')),
  '/system/job': lazyScreen(() => import('../features/jobs/JobsPage')),
  '/system/server': lazyScreen(() => import('../features/system/ServerPage')),
  '/factoring/contract/collection': lazyScreen(() => import('../features/collections/CollectionsPage')),
  '/factoring/credit/debtor-line': lazyScreen(() => import('../features/debtor/DebtorLinePage')),
  '/factoring/credit/debtor-match': lazyScreen(() => import('../features/debtor/DebtorMatchPage')),
  '/factoring/credit/debtor-concentration': lazyScreen(
    () => import('../features/debtor/DebtorConcentrationPage'),
  ),
  '/factoring/contract/info': lazyScreen(() => import('../features/contract/ContractListPage')),
  '/factoring/contract/info-editor': lazyScreen(() => import('../features/contract/ContractEditorPage')),
  '/factoring/contract/info-view': lazyScreen(() => import('../features/contract/ContractViewPage')),
  '/factoring/contract/change': lazyScreen(() =>
    import('../features/contract/ChangePages').then((m) => ({ default: m.ChangeListPage })),
  ),
  '/factoring/contract/change-editor': lazyScreen(() =>
    import('../features/contract/ChangePages').then((m) => ({ default: m.ChangeEditorPage })),
  ),
  '/factoring/contract/change-view': lazyScreen(() =>
    import('../features/contract/ChangePages').then((m) => ({ default: m.ChangeViewPage })),
  ),
  '/factoring/contract/handover': lazyScreen(() =>
    import('../features/contract/HandoverPages').then((m) => ({ default: m.HandoverListPage })),
  ),
  '/factoring/contract/handover-editor': lazyScreen(() =>
    import('../features/contract/HandoverPages').then((m) => ({ default: m.HandoverEditorPage })),
  ),
  '/factoring/contract/handover-view': lazyScreen(() =>
    import('../features/contract/HandoverPages').then((m) => ({ default: m.HandoverViewPage })),
  ),
  '/factoring/accounts/loan': lazyScreen(() =>
    import('../features/loan/LoanPages').then((m) => ({ default: m.LoanListPage })),
  ),
  '/factoring/accounts/loan-editor': lazyScreen(() =>
    import('../features/loan/LoanPages').then((m) => ({ default: m.LoanEditorPage })),
  ),
  '/factoring/accounts/loan-view': lazyScreen(() =>
    import('../features/loan/LoanPages').then((m) => ({ default: m.LoanViewPage })),
  ),
  '/factoring/accounts/loan-red-view': lazyScreen(() =>
    import('../features/loan/LoanPages').then((m) => ({ default: m.LoanRedViewPage })),
  ),
  '/factoring/accounts/income': lazyScreen(() =>
    import('../features/income/IncomePages').then((m) => ({ default: m.IncomeListPage })),
  ),
  '/factoring/accounts/income-editor': lazyScreen(() =>
    import('../features/income/IncomePages').then((m) => ({ default: m.IncomeEditorPage })),
  ),
  '/factoring/accounts/income-view': lazyScreen(() =>
    import('../features/income/IncomePages').then((m) => ({ default: m.IncomeViewPage })),
  ),
  '/factoring/accounts/paid': lazyScreen(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.PaidListPage })),
  ),
  '/factoring/accounts/paid-editor': lazyScreen(() => import('../features/paid/PaidEditorPage')),
  '/factoring/accounts/paid-view': lazyScreen(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.PaidViewPage })),
  ),
  '/factoring/accounts/paid-red': lazyScreen(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.RedListPage })),
  ),
  '/factoring/accounts/paid-red-view': lazyScreen(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.RedViewPage })),
  ),
  '/factoring/accounts/reconcile': lazyScreen(() => import('../features/paid/ReconcilePage')),
  '/factoring/accounts/ledger': lazyScreen(() => import('../features/ledger/LedgerPage')),
  '/factoring/accounts/regulator': lazyScreen(() => import('../features/regulator/RegulatorPage')),
  '/factoring/accounts/classification': lazyScreen(() =>
    import('../features/classification/ClassificationPages').then((m) => ({
      default: m.ClassificationListPage,
    })),
  ),
  '/factoring/accounts/classification-editor': lazyScreen(() =>
    import('../features/classification/ClassificationPages').then((m) => ({
      default: m.ClassAdjEditorPage,
    })),
  ),
  '/factoring/accounts/classification-view': lazyScreen(() =>
    import('../features/classification/ClassificationPages').then((m) => ({
      default: m.ClassAdjViewPage,
    })),
  ),
  '/factoring/accounts/buyback': lazyScreen(() =>
    import('../features/buyback/BuybackPages').then((m) => ({ default: m.BuybackListPage })),
  ),
  '/factoring/accounts/buyback-editor': lazyScreen(() =>
    import('../features/buyback/BuybackPages').then((m) => ({ default: m.BuybackEditorPage })),
  ),
  '/factoring/accounts/buyback-view': lazyScreen(() =>
    import('../features/buyback/BuybackPages').then((m) => ({ default: m.BuybackViewPage })),
  ),
  '/factoring/accounts/buyback-settle-view': lazyScreen(() =>
    import('../features/buyback/BuybackPages').then((m) => ({ default: m.BuybackSettleViewPage })),
  ),
  '/factoring/accounts/bad-debt': lazyScreen(() =>
    import('../features/baddebt/BadDebtPages').then((m) => ({ default: m.BadDebtListPage })),
  ),
  '/factoring/accounts/bad-debt-editor': lazyScreen(() =>
    import('../features/baddebt/BadDebtPages').then((m) => ({ default: m.BadDebtEditorPage })),
  ),
  '/factoring/accounts/bad-debt-view': lazyScreen(() =>
    import('../features/baddebt/BadDebtPages').then((m) => ({ default: m.BadDebtViewPage })),
  ),
  '/factoring/accounts/statement': lazyScreen(() => import('../features/ledger/StatementPage')),
  '/factoring/accounts/voucher': lazyScreen(() => import('../features/voucher/VoucherPage')),
  '/factoring/accounts/voucher-trial': lazyScreen(() => import('../features/voucher/TrialPage')),
  '/factoring/accounts/voucher-close': lazyScreen(() => import('../features/voucher/ClosePage')),
  '/factoring/accounts/voucher-account': lazyScreen(() => import('../features/voucher/AccountPage')),
  '/factoring/config/print': lazyScreen(() => import('../features/print/PrintListPage')),
  '/factoring/config/print-editor': lazyScreen(() => import('../features/print/PrintEditorPage')),
  '/factoring/pa/mgr': lazyScreen(() =>
    import('../features/prepayment/PrepaymentPages').then((m) => ({ default: m.PaListPage })),
  ),
  '/factoring/pa/mgr-editor/basic-info': lazyScreen(() =>
    import('../features/prepayment/PrepaymentPages').then((m) => ({ default: m.PaEditorPage })),
  ),
  '/factoring/pa/mgr-view/basic-info': lazyScreen(() =>
    import('../features/prepayment/PrepaymentPages').then((m) => ({ default: m.PaViewPage })),
  ),
  ...PERMIT_SCREENS,
};

export const PlaceholderScreen: LazyScreen = lazyScreen(() => import('../shared/ui/ComingSoon'));

export function screenFor(path: string): LazyScreen {
  return SCREENS[path] ?? PlaceholderScreen;
}

/**
 * Starts fetching the chunks the path will render (its layout and its screen, past redirects)
 * while the guard is still loading the session, instead of after it. Failures are left to the
 * render, which loads again.
 */
export function preloadScreen(path: string): void {
  let meta = findRoute(path);
  for (let hops = 0; meta?.redirect && hops < 3; hops++) meta = findRoute(meta.redirect);
  // The public routes render outside the layouts, except the dashboard (the home screen).
  if (!meta || (meta.isPublic && !SCREENS[meta.path])) return;
  const layout = meta.layout === 'website' ? WebsiteLayout : ManagementLayout;
  for (const chunk of [AntdShell, layout, screenFor(meta.path)]) chunk.preload().catch(() => undefined);
}

/**
 * The list call of a screen whose first render is a `ListPage` of that path with its defaults (no
 * link filters, default page size and key), by route path (paths from zod-free modules only: this
 * is in the entry chunk).
 */
export const SCREEN_LISTS: Record<string, string> = {
  '/factoring/contract/info': CONTRACT_PATHS.list,
};

/**
 * Starts the first list call of the screen at `path` while its chunks are still downloading (issue
 * 14: the contract list on a cold start). Only for a plain URL: filters in the query string change
 * the call, which the screen then makes itself. The dashboard's first figures likewise
 * (docs/architecture.md "The first screen without antd").
 */
export function prefetchScreenData(path: string, search: string): void {
  const source = SCREEN_LISTS[path];
  if (source && !search) prefetchListPage(queryClient, source, path);
  // The dashboard's first figures. Imported here, as the dashboard's contract modules bring zod,
  // which the entry does without.
  if (path === '/dashboard') {
    const roles = useSessionStore.getState().roles;
    void import('../features/dashboard/api')
      .then(({ prefetchDashboard }) => prefetchDashboard(queryClient, roles))
      .catch(() => undefined);
  }
}
