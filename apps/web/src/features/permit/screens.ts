import { lazyScreen, type LazyScreen } from '../../shared/ui/screen';

// One lazy screen per route, as for every other route (each loads its module's chunk once).
const custList = () =>
  lazyScreen(() => import('./PermitListPage').then((m) => ({ default: m.CustPermitListPage })));
const userList = () =>
  lazyScreen(() => import('./PermitListPage').then((m) => ({ default: m.UserPermitListPage })));
const record = () =>
  lazyScreen(() => import('./PermitRecordPage').then((m) => ({ default: m.PermitRecordPage })));
const roleChgList = () =>
  lazyScreen(() => import('./RoleChgListPage').then((m) => ({ default: m.RoleChgListPage })));
const roleChgView = () =>
  lazyScreen(() => import('./RoleChgViewPage').then((m) => ({ default: m.RoleChgViewPage })));

/** Admission (准入, /ec, /fc, /dw): route path -> screen, spread into app/screens.tsx. */
export const PERMIT_SCREENS: Record<string, LazyScreen> = {
  '/ec/permit/comp': custList(),
  '/dw/permit/comp': custList(),
  '/fc/fc': custList(),
  '/ec/permit/personal': userList(),
  '/dw/permit/personal': userList(),
  '/ec/permit/comp-role-chg': roleChgList(),
  '/ec/permit/comp-role-chg-editor/basic-info': record(),
  '/dw/permit/comp-editor/basic-info': record(),
  '/fc/fc-editor/basic-info': record(),
  '/ec/permit/comp-role-chg-view/basic-info': roleChgView(),
};
