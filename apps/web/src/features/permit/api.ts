import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { Page } from '@portal/contract/api';
import {
  judgeOf,
  PERMIT_AREA_LABELS,
  PERMIT_PATHS,
  permitDict,
  type CustSave,
  type PermitAction,
  type PermitArea,
  type PermitDict,
  type PermitDictItem,
  type PermitRow,
  type PermitSubject,
  type PermitView,
  type RoleChangeRow,
  type RoleChangeView,
  type SetRole,
  type UserCandidate,
  type UserSave,
} from '@portal/contract/permit';
import { post, update, type UpdateResult } from '../../shared/request/http';
import { normalizeDictItems } from '@portal/contract/dict';
import { companyQueries } from '../../shared/company/api';

/** Screen paths of the admission area. */
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

/** The area a screen serves, from its path (/ec…, /dw…, /fc…). */
export function areaOfPath(path: string): PermitArea {
  if (path.startsWith('/dw')) return 'dw';
  if (path.startsWith('/fc')) return 'fc';
  return 'ec';
}

/** The record page of each area: under its own section's header and sidebar. */
const RECORD_ROUTES: Record<PermitArea, string> = {
  ec: PERMIT_ROUTES.record,
  dw: PERMIT_ROUTES.dwRecord,
  fc: PERMIT_ROUTES.fcRecord,
};

/** The admission record of a row, opened with `judge` so that 返回 leads back to its list. */
export const recordLink = (row: Pick<PermitRow, 'bizCode' | 'subject' | 'area'>) => {
  const judge = judgeOf(row.subject, row.area);
  const q = new URLSearchParams({ subject: row.subject, bizCode: row.bizCode, ...(judge ? { judge } : {}) });
  return `${RECORD_ROUTES[row.area]}?${q.toString()}`;
};

const listKey = (subject: PermitSubject) =>
  ['list', subject === 'cust' ? PERMIT_PATHS.custList : PERMIT_PATHS.userList] as const;

/** The key of one area's admission list: under the subject's list key, which a change invalidates. */
export const areaListKey = (subject: PermitSubject, area: PermitArea) => [...listKey(subject), area] as const;

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

const isCode = (bizCode: string) => /^\d{12}$/.test(bizCode);

/** Each list of the admission dictionary as `{ code, label }`, whichever spelling it came in (SPEC 3.16). */
function permitDictItems(raw: PermitDict): PermitDict {
  const items = (list: unknown) => normalizeDictItems<PermitDictItem>(list);
  return {
    areas: items(raw.areas),
    states: items(raw.states),
    roles: Object.fromEntries(
      Object.entries(raw.roles ?? {}).map(([area, list]) => [area, items(list)]),
    ) as PermitDict['roles'],
  };
}

/** The admission reads as query options (`useQuery(permitQueries.view(subject, bizCode))`). */
export const permitQueries = {
  /** The areas, states and roles (list/dict); the contract's own copy until it answers. */
  dict: (subject: PermitSubject) =>
    queryOptions({
      queryKey: ['permit', 'dict', subject],
      queryFn: async () =>
        permitDictItems(
          await post<PermitDict>(
            subject === 'cust' ? PERMIT_PATHS.custDict : PERMIT_PATHS.userDict,
            undefined,
            {
              loading: false,
            },
          ),
        ),
      staleTime: Infinity,
      placeholderData: permitDict(subject),
    }),
  /** Enabled customers for the pickers ({code,label}): the shared customer dictionary. */
  customers: () => companyQueries.dict(),
  view: (subject: PermitSubject, bizCode: string) =>
    queryOptions({
      queryKey: ['permit', 'view', subject, bizCode],
      queryFn: () => permitApi.view(subject, bizCode),
      enabled: isCode(bizCode),
      retry: false,
    }),
  roleChange: (bizCode: string) =>
    queryOptions({
      queryKey: ['permit', 'roleChg', bizCode],
      queryFn: () => permitApi.roleChange(bizCode),
      enabled: isCode(bizCode),
      retry: false,
    }),
  /** The approved users of an enterprise that a user admission can name. */
  candidates: (compCode: string | undefined, enabled: boolean) =>
    queryOptions({
      queryKey: ['permit', 'candidates', compCode],
      queryFn: () => permitApi.candidates(compCode!),
      enabled: enabled && !!compCode,
    }),
  /** One page of an admission's role history (roleChg/list?permitCode=, docs/protocol.md "Lists"). */
  history: (bizCode: string, pageNum: number, pageSize: number) =>
    queryOptions({
      queryKey: ['permit', 'history', bizCode, pageNum],
      queryFn: () =>
        post<Page<RoleChangeRow>>(
          PERMIT_PATHS.roleChgList,
          { permitCode: bizCode, pageNum, pageSize },
          { loading: false },
        ),
      placeholderData: keepPreviousData,
    }),
  /** The first `pageSize` open ec customer admissions whose enterprise name matches `search`. */
  openEcCust: (search: string, pageSize: number) =>
    queryOptions({
      queryKey: ['permit', 'open-ec-cust', search],
      queryFn: () =>
        post<Page<PermitRow>>(
          PERMIT_PATHS.custList,
          { area: 'ec', state: 'open', ...(search ? { compName: search } : {}), pageNum: 1, pageSize },
          { loading: false },
        ),
      placeholderData: keepPreviousData,
    }),
};

export function usePermitDict(subject: PermitSubject) {
  return useQuery(permitQueries.dict(subject));
}

export function useCustomers() {
  return useQuery(permitQueries.customers());
}

/**
 * After a change of an admission: its lists, records, histories and role changes are stale.
 * The request layer refreshes every list after a change too: those calls are joined, not restarted.
 */
function invalidatePermits(client: QueryClient, subject: PermitSubject): void {
  const joined = { cancelRefetch: false };
  void client.invalidateQueries({ queryKey: listKey(subject) }, joined);
  void client.invalidateQueries({ queryKey: ['list', PERMIT_PATHS.roleChgList] }, joined);
  void client.invalidateQueries({ queryKey: ['permit', 'view', subject] });
  void client.invalidateQueries({ queryKey: ['permit', 'history'] });
  void client.invalidateQueries({ queryKey: ['permit', 'open-ec-cust'] });
}

type Saving = { subject: 'cust'; body: CustSave } | { subject: 'user'; body: UserSave };

interface Acting {
  subject: PermitSubject;
  target: ActionTarget;
  name: string;
}

/**
 * The admission changes as mutations: 保存 (新增/编辑), 开通, 停用 and 设置角色, each with its
 * confirmation; a successful one invalidates what it changed (invalidatePermits).
 */
export function usePermitMutations() {
  const client = useQueryClient();
  const onSuccess = (r: UpdateResult<unknown>, v: { subject: PermitSubject }) => {
    if (r.ok) invalidatePermits(client, v.subject);
  };
  const save = useMutation({
    mutationFn: (s: Saving) =>
      s.subject === 'cust' ? permitApi.saveCust(s.body) : permitApi.saveUser(s.body),
    onSuccess,
  });
  const open = useMutation({
    mutationFn: ({ subject, target, name }: Acting) => permitApi.open(subject, target, name),
    onSuccess,
  });
  const disable = useMutation({
    mutationFn: ({ subject, target, name }: Acting) => permitApi.disable(subject, target, name),
    onSuccess,
  });
  const setRole = useMutation({
    mutationFn: ({ subject, body }: { subject: PermitSubject; body: SetRole }) =>
      permitApi.setRole(subject, body),
    onSuccess,
  });
  return { save, open, disable, setRole };
}
