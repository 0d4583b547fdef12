import { useQuery } from '@tanstack/react-query';
import { COMPANY_PATHS, type DictItem } from '@portal/contract/company';
import {
  PERMIT_AREA_LABELS,
  PERMIT_PATHS,
  permitDict,
  type CustSave,
  type PermitAction,
  type PermitArea,
  type PermitDict,
  type PermitSubject,
  type PermitView,
  type RoleChangeView,
  type SetRole,
  type UserCandidate,
  type UserSave,
} from '@portal/contract/permit';
import { post, update } from '../../shared/request/http';

/** Screen paths of the admission area (SPEC §2.3). */
export const PERMIT_ROUTES = {
  ecComp: '/ec/permit/comp',
  ecPersonal: '/ec/permit/personal',
  dwComp: '/dw/permit/comp',
  dwPersonal: '/dw/permit/personal',
  fc: '/fc/fc',
  roleChg: '/ec/permit/comp-role-chg',
  /** The admission record (basic info, open/disable, set roles); `?bizCode=&subject=&judge=`. */
  record: '/ec/permit/comp-role-chg-editor/basic-info',
  /** The same record page under 山高E融 and 银企链, so it opens under its own section. */
  dwRecord: '/dw/permit/comp-editor/basic-info',
  fcRecord: '/fc/fc-editor/basic-info',
  /** One role change; `?bizCode=` of the change. */
  roleChgView: '/ec/permit/comp-role-chg-view/basic-info',
} as const;

export const listKey = (subject: PermitSubject) =>
  ['list', subject === 'cust' ? PERMIT_PATHS.custList : PERMIT_PATHS.userList] as const;

const byCode = (bizCode: string) => ({ query: { bizCode } });

/** The admission an action is about, as the screen shows it. */
interface ActionTarget {
  bizCode: string;
  area: PermitArea;
  version: number;
}

export const permitApi = {
  view: (subject: PermitSubject, bizCode: string) =>
    post<PermitView>(
      subject === 'cust' ? PERMIT_PATHS.custView : PERMIT_PATHS.userView,
      undefined,
      byCode(bizCode),
    ),
  saveCust: (body: CustSave) => update<{ bizCode: string }>(PERMIT_PATHS.custSave, body),
  saveUser: (body: UserSave) => update<{ bizCode: string }>(PERMIT_PATHS.userSave, body),
  /** 开通 / 停用 send the version the screen showed (a stale one answers 409). */
  open: (subject: PermitSubject, { bizCode, area, version }: ActionTarget, name: string) =>
    update(
      subject === 'cust' ? PERMIT_PATHS.custOpen : PERMIT_PATHS.userOpen,
      { area, version } satisfies PermitAction,
      {
        ...byCode(bizCode),
        confirm: `确定要在${PERMIT_AREA_LABELS[area]}区域开通「${name}」的准入吗？`,
      },
    ),
  disable: (subject: PermitSubject, { bizCode, area, version }: ActionTarget, name: string) =>
    update(
      subject === 'cust' ? PERMIT_PATHS.custDisable : PERMIT_PATHS.userDisable,
      { area, version } satisfies PermitAction,
      {
        ...byCode(bizCode),
        confirm: `确定要停用「${name}」在${PERMIT_AREA_LABELS[area]}区域的准入吗？`,
      },
    ),
  setRole: (subject: PermitSubject, body: SetRole) =>
    update<{ bizCode: string }>(
      subject === 'cust' ? PERMIT_PATHS.setCustRole : PERMIT_PATHS.setUserRole,
      body,
      {
        confirm: '确定要变更角色吗？',
      },
    ),
  roleChange: (bizCode: string) => post<RoleChangeView>(PERMIT_PATHS.roleChgView, undefined, byCode(bizCode)),
  candidates: (compCode: string) =>
    post<UserCandidate[]>(PERMIT_PATHS.userCandidates, undefined, { query: { compCode }, loading: false }),
};

/** The areas, states and roles (list/dict); the contract's own copy until it answers. */
export function usePermitDict(subject: PermitSubject) {
  return useQuery({
    queryKey: ['permit', 'dict', subject],
    queryFn: () =>
      post<PermitDict>(subject === 'cust' ? PERMIT_PATHS.custDict : PERMIT_PATHS.userDict, undefined, {
        loading: false,
      }),
    staleTime: Infinity,
    placeholderData: permitDict(subject),
  });
}

/** Enabled customers for the pickers ({code,label}). */
export function useCustomers() {
  return useQuery({
    queryKey: ['company', 'dict', false],
    queryFn: () => post<DictItem[]>(COMPANY_PATHS.dict, {}, { loading: false }),
    staleTime: 60_000,
  });
}
