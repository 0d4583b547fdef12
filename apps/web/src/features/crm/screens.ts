import { lazyScreen, type LazyScreen } from '../../shared/ui/screen';

type Screens = Record<string, LazyScreen>;

const tabs = () => import('./corporation');
const TAB_COMPONENTS = {
  corporation: () => tabs().then((m) => ({ default: m.BasicTab })),
  employee: () => tabs().then((m) => ({ default: m.EmployeeTab })),
  corporationAdd: () => tabs().then((m) => ({ default: m.CorporationAddTab })),
  role: () => tabs().then((m) => ({ default: m.RoleTab })),
  account: () => tabs().then((m) => ({ default: m.AccountTab })),
  bill: () => tabs().then((m) => ({ default: m.BillTab })),
  des: () => tabs().then((m) => ({ default: m.DesTab })),
  file: () => tabs().then((m) => ({ default: m.FileTab })),
  approval: () => tabs().then((m) => ({ default: m.ApprovalTab })),
};

function corporationTabs(base: string, names: readonly (keyof typeof TAB_COMPONENTS)[]): Screens {
  return Object.fromEntries(names.map((n) => [`${base}/${n}`, lazyScreen(TAB_COMPONENTS[n])]));
}

const bank = () => import('./BankPages');
const firm = () => import('./FirmPages');

/** The CRM screens (/crm), registered in src/app/screens.tsx. */
export const CRM_SCREENS: Screens = {
  '/crm/corporation/list': lazyScreen(() => import('./CorporationListPage')),
  ...corporationTabs('/crm/corporation/edit', [
    'corporation',
    'employee',
    'corporationAdd',
    'role',
    'account',
    'bill',
    'des',
    'file',
  ]),
  ...corporationTabs('/crm/corporation/view', [
    'corporation',
    'account',
    'bill',
    'des',
    'employee',
    'file',
    'role',
    'approval',
  ]),
  '/crm/corporation/bank': lazyScreen(() => bank().then((m) => ({ default: m.BankListPage }))),
  '/crm/corporation/bank-editor/basic-info': lazyScreen(() =>
    bank().then((m) => ({ default: m.BankBasicTab })),
  ),
  '/crm/corporation/bank-editor/employee': lazyScreen(() =>
    bank().then((m) => ({ default: m.BankEmployeeTab })),
  ),
  '/crm/corporation/bank-view/basic-info': lazyScreen(() =>
    bank().then((m) => ({ default: m.BankBasicTab })),
  ),
  '/crm/corporation/bank-view/employee': lazyScreen(() =>
    bank().then((m) => ({ default: m.BankEmployeeTab })),
  ),
  '/crm/corporation/org': lazyScreen(() => import('./OrgPage')),
  '/crm/corporation/relation': lazyScreen(() => import('./RelationPage')),
  '/crm/frim/list': lazyScreen(() => firm().then((m) => ({ default: m.FirmListPage }))),
  '/crm/frim/frimcheck/base': lazyScreen(() => firm().then((m) => ({ default: m.FirmCheckPage }))),
};
