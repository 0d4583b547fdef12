import { lazy, type LazyExoticComponent } from 'react';
import type { ScreenComponent } from '../../shared/ui/screen';

type Screens = Record<string, LazyExoticComponent<ScreenComponent>>;

const info = () => import('./InfoChangePages');
const manager = () => import('./ManagerChangePages');

/** 企业信息变更 and 管理员变更 (/crm/corporation/…), registered in src/app/screens.tsx. */
export const CRM_CHANGE_SCREENS: Screens = {
  '/crm/corporation/change': lazy(() => info().then((m) => ({ default: m.InfoChangeListPage }))),
  '/crm/corporation/change-editor/at-info': lazy(() =>
    info().then((m) => ({ default: m.InfoChangeEditorPage })),
  ),
  '/crm/corporation/change-editor/other-info': lazy(() =>
    info().then((m) => ({ default: m.InfoChangeEditorPage })),
  ),
  '/crm/corporation/change-view/after': lazy(() => info().then((m) => ({ default: m.InfoChangeViewPage }))),
  '/crm/corporation/change-view/reviewInformation': lazy(() =>
    info().then((m) => ({ default: m.InfoChangeViewPage })),
  ),
  '/crm/corporation/manager': lazy(() => manager().then((m) => ({ default: m.ManagerChangeListPage }))),
  '/crm/corporation/manager-add': lazy(() => manager().then((m) => ({ default: m.ManagerChangeEditorPage }))),
  '/crm/corporation/manager-edit': lazy(() =>
    manager().then((m) => ({ default: m.ManagerChangeEditorPage })),
  ),
  '/crm/corporation/manager-view': lazy(() => manager().then((m) => ({ default: m.ManagerChangeViewPage }))),
};
