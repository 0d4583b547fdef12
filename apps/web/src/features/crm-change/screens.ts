import { lazyScreen, type LazyScreen } from '../../shared/ui/screen';

type Screens = Record<string, LazyScreen>;

const infoList = () => import('./InfoChangeListPage');
const infoEditor = () => import('./InfoChangeEditorPage');
const infoView = () => import('./InfoChangeViewPage');
const manager = () => import('./ManagerChangePages');

/** 企业信息变更 and 管理员变更 (/crm/corporation/…), registered in src/app/screens.tsx. */
export const CRM_CHANGE_SCREENS: Screens = {
  '/crm/corporation/change': lazyScreen(() => infoList().then((m) => ({ default: m.InfoChangeListPage }))),
  '/crm/corporation/change-editor/at-info': lazyScreen(() =>
    infoEditor().then((m) => ({ default: m.InfoChangeEditorPage })),
  ),
  '/crm/corporation/change-editor/other-info': lazyScreen(() =>
    infoEditor().then((m) => ({ default: m.InfoChangeEditorPage })),
  ),
  '/crm/corporation/change-view/after': lazyScreen(() =>
    infoView().then((m) => ({ default: m.InfoChangeViewPage })),
  ),
  '/crm/corporation/change-view/reviewInformation': lazyScreen(() =>
    infoView().then((m) => ({ default: m.InfoChangeViewPage })),
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
