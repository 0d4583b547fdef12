import { lazyScreen, type LazyScreen } from '../../shared/ui/screen';

type Screens = Record<string, LazyScreen>;

const info = () => import('./InfoChangePages');
const manager = () => import('./ManagerChangePages');

/** 企业信息变更 and 管理员变更 (/crm/corporation/…), registered in src/app/screens.tsx. */
export const CRM_CHANGE_SCREENS: Screens = {
  '/crm/corporation/change': lazyScreen(() => info().then((m) => ({ default: m.InfoChangeListPage }))),
  '/crm/corporation/change-editor/at-info': lazyScreen(() =>
    info().then((m) => ({ default: m.InfoChangeEditorPage })),
  ),
  '/crm/corporation/change-editor/other-info': lazyScreen(() =>
    info().then((m) => ({ default: m.InfoChangeEditorPage })),
  ),
  '/crm/corporation/change-view/after': lazyScreen(() =>
    info().then((m) => ({ default: m.InfoChangeViewPage })),
  ),
  '/crm/corporation/change-view/reviewInformation': lazyScreen(() =>
    info().then((m) => ({ default: m.InfoChangeViewPage })),
  ),
  '/crm/corporation/manager': lazyScreen(() => manager().then((m) => ({ default: m.ManagerChangeListPage }))),
  '/crm/corporation/manager-add': lazyScreen(() =>
    manager().then((m) => ({ default: m.ManagerChangeEditorPage })),
  ),
  '/crm/corporation/manager-edit': lazyScreen(() =>
    manager().then((m) => ({ default: m.ManagerChangeEditorPage })),
  ),
  '/crm/corporation/manager-view': lazyScreen(() =>
    manager().then((m) => ({ default: m.ManagerChangeViewPage })),
  ),
};
