import { lazy, type LazyExoticComponent } from 'react';
import type { ScreenComponent } from '../shared/ui/screen';
import { CRM_SCREENS } from '../features/crm/screens';
import { CRM_CHANGE_SCREENS } from '../features/crm-change/screens';
import { PERMIT_SCREENS } from '../features/permit/screens';

/**
 * Route path -> lazily loaded screen. A business feature registers its screen here with one line;
 * every route of the menu catalogue without an entry shows the 功能建设中 placeholder.
 * Each screen receives `{ meta }` (ScreenProps of src/shared/ui/screen.ts).
 */
export const SCREENS: Record<string, LazyExoticComponent<ScreenComponent>> = {
  ...CRM_SCREENS,
  ...CRM_CHANGE_SCREENS,
  '/dashboard': lazy(() => import('../features/dashboard/DashboardPage')),
  '/factoring/config/company': lazy(() => import('../features/company/CompanyListPage')),
  '/factoring/config/company-editor': lazy(() => import('../features/company/CompanyEditorPage')),
  '/factoring/config/bank': lazy(() => import('../features/bank/BankListPage')),
  '/factoring/config/ruler': lazy(() => import('../features/ruler/RulerListPage')),
  '/factoring/config/ruler-editor': lazy(() => import('../features/ruler/RulerEditorPage')),
  '/factoring/config/process': lazy(() => import('../features/workflow/ProcessPage')),
  '/factoring/credit/info': lazy(() => import('../features/credit/CreditListPage')),
  '/factoring/credit/info-editor': lazy(() => import('../features/credit/CreditEditorPage')),
  '/factoring/credit/info-view': lazy(() => import('../features/credit/CreditViewPage')),
  '/factoring/credit/distribution': lazy(() => import('../features/credit/DistributionListPage')),
  '/factoring/credit/distribution-editor': lazy(() => import('../features/credit/DistributionEditorPage')),
  '/factoring/credit/distribution-view': lazy(() => import('../features/credit/DistributionViewPage')),
  '/factoring/credit/change': lazy(() => import('../features/credit/ChangeListPage')),
  '/factoring/credit/change-editor': lazy(() => import('../features/credit/ChangeEditorPage')),
  '/factoring/credit/change-view': lazy(() => import('../features/credit/ChangeViewPage')),
  '/permission/role': lazy(() => import('../features/permission/RolePage')),
  '/permission/org': lazy(() => import('../features/permission/OrgPage')),
  '/permission/user': lazy(() => import('../features/permission/UserPage')),
  '/factoring/contract/info': lazy(() => import('../features/contract/ContractListPage')),
  '/factoring/contract/info-editor': lazy(() => import('../features/contract/ContractEditorPage')),
  '/factoring/contract/info-view': lazy(() => import('../features/contract/ContractViewPage')),
  '/factoring/contract/change': lazy(() =>
    import('../features/contract/ChangePages').then((m) => ({ default: m.ChangeListPage })),
  ),
  '/factoring/contract/change-editor': lazy(() =>
    import('../features/contract/ChangePages').then((m) => ({ default: m.ChangeEditorPage })),
  ),
  '/factoring/contract/change-view': lazy(() =>
    import('../features/contract/ChangePages').then((m) => ({ default: m.ChangeViewPage })),
  ),
  '/factoring/contract/handover': lazy(() =>
    import('../features/contract/HandoverPages').then((m) => ({ default: m.HandoverListPage })),
  ),
  '/factoring/contract/handover-editor': lazy(() =>
    import('../features/contract/HandoverPages').then((m) => ({ default: m.HandoverEditorPage })),
  ),
  '/factoring/contract/handover-view': lazy(() =>
    import('../features/contract/HandoverPages').then((m) => ({ default: m.HandoverViewPage })),
  ),
  '/factoring/accounts/income': lazy(() =>
    import('../features/income/IncomePages').then((m) => ({ default: m.IncomeListPage })),
  ),
  '/factoring/accounts/income-editor': lazy(() =>
    import('../features/income/IncomePages').then((m) => ({ default: m.IncomeEditorPage })),
  ),
  '/factoring/accounts/income-view': lazy(() =>
    import('../features/income/IncomePages').then((m) => ({ default: m.IncomeViewPage })),
  ),
  '/factoring/accounts/paid': lazy(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.PaidListPage })),
  ),
  '/factoring/accounts/paid-editor': lazy(() => import('../features/paid/PaidEditorPage')),
  '/factoring/accounts/paid-view': lazy(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.PaidViewPage })),
  ),
  '/factoring/accounts/paid-red': lazy(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.RedListPage })),
  ),
  '/factoring/accounts/paid-red-view': lazy(() =>
    import('../features/paid/PaidPages').then((m) => ({ default: m.RedViewPage })),
  ),
  '/factoring/accounts/reconcile': lazy(() => import('../features/paid/ReconcilePage')),
  '/factoring/config/print': lazy(() => import('../features/print/PrintListPage')),
  '/factoring/config/print-editor': lazy(() => import('../features/print/PrintEditorPage')),
  '/factoring/pa/mgr': lazy(() =>
    import('../features/prepayment/PrepaymentPages').then((m) => ({ default: m.PaListPage })),
  ),
  '/factoring/pa/mgr-editor/basic-info': lazy(() =>
    import('../features/prepayment/PrepaymentPages').then((m) => ({ default: m.PaEditorPage })),
  ),
  '/factoring/pa/mgr-view/basic-info': lazy(() =>
    import('../features/prepayment/PrepaymentPages').then((m) => ({ default: m.PaViewPage })),
  ),
  ...PERMIT_SCREENS,
};

export const PlaceholderScreen: LazyExoticComponent<ScreenComponent> = lazy(
  () => import('../shared/ui/ComingSoon'),
);

export function screenFor(path: string): LazyExoticComponent<ScreenComponent> {
  return SCREENS[path] ?? PlaceholderScreen;
}
