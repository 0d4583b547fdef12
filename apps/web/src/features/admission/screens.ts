import { lazyScreen, type LazyScreen } from '../../shared/ui/screen';

/** 客户准入 (/factoring/config/admission…), registered in src/app/screens.tsx. */
export const ADMISSION_SCREENS: Record<string, LazyScreen> = {
  '/factoring/config/admission': lazyScreen(() => import('./AdmissionListPage')),
  '/factoring/config/admission-editor': lazyScreen(() => import('./AdmissionEditorPage')),
  '/factoring/config/admission-view': lazyScreen(() => import('./AdmissionViewPage')),
};
