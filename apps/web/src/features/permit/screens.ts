import { lazyScreen, type LazyScreen } from '../../shared/ui/screen';

type PageName =
  'CustPermitListPage' | 'UserPermitListPage' | 'PermitRecordPage' | 'RoleChgListPage' | 'RoleChgViewPage';

const page = (name: PageName) =>
  lazyScreen(() => import('./PermitPages').then((m) => ({ default: m[name] })));

/** Admission (准入, SPEC §2.3 /ec, /fc, /dw): route path -> screen, spread into app/screens.tsx. */
export const PERMIT_SCREENS: Record<string, LazyScreen> = {
  '/ec/permit/comp': page('CustPermitListPage'),
  '/dw/permit/comp': page('CustPermitListPage'),
  '/fc/fc': page('CustPermitListPage'),
  '/ec/permit/personal': page('UserPermitListPage'),
  '/dw/permit/personal': page('UserPermitListPage'),
  '/ec/permit/comp-role-chg': page('RoleChgListPage'),
  '/ec/permit/comp-role-chg-editor/basic-info': page('PermitRecordPage'),
  '/dw/permit/comp-editor/basic-info': page('PermitRecordPage'),
  '/fc/fc-editor/basic-info': page('PermitRecordPage'),
  '/ec/permit/comp-role-chg-view/basic-info': page('RoleChgViewPage'),
};
