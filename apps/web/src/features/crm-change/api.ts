import { queryOptions } from '@tanstack/react-query';
import {
  COMP_CHANGE_PATHS,
  COMP_MANAGER_PATHS,
  type CompanyHistoryItem,
  type CompanyHistoryListInput,
  type CompUserOption,
  type InfoChangeInit,
  type InfoChangeSave,
  type InfoChangeView,
  type ManagerCandidateListInput,
  type ManagerChangeInit,
  type ManagerChangeSave,
  type ManagerChangeView,
} from '@portal/contract/crm-change';
import type { Page } from '@portal/contract/api';
import type { DocState } from '@portal/contract/workflow';
import { post, update, type UpdateOptions } from '../../shared/request/http';

export const CHANGE_ROUTES = {
  list: '/crm/corporation/change',
  editor: '/crm/corporation/change-editor',
  view: '/crm/corporation/change-view',
} as const;
export const MANAGER_ROUTES = {
  list: '/crm/corporation/manager',
  add: '/crm/corporation/manager-add',
  edit: '/crm/corporation/manager-edit',
  view: '/crm/corporation/manager-view',
} as const;
export const INFO_MENU = 'crm-cor-info';
export const MANAGER_MENU = 'crm-cor-mg';

export interface Saved {
  bizCode: string;
  version: number;
  state: DocState;
}

const byCode = (bizCode: string) => ({ query: { bizCode } });
const byComp = (compCode: string) => ({ query: { compCode } });

export const changeApi = {
  init: (compCode: string) => post<InfoChangeInit>(COMP_CHANGE_PATHS.init, undefined, byComp(compCode)),
  view: (bizCode: string) => post<InfoChangeView>(COMP_CHANGE_PATHS.view, undefined, byCode(bizCode)),
  /** 企业变更历史 of a customer, one page. */
  history: (body: CompanyHistoryListInput) =>
    post<Page<CompanyHistoryItem>>(COMP_CHANGE_PATHS.history, body, { loading: false }),
  save: (body: InfoChangeSave, opts: UpdateOptions) => update<Saved>(COMP_CHANGE_PATHS.save, body, opts),
  remove: (bizCode: string) =>
    update(COMP_CHANGE_PATHS.del, undefined, {
      ...byCode(bizCode),
      confirm: '确定要删除该企业信息变更单吗？',
    }),
};

export const managerApi = {
  init: (compCode: string) =>
    post<ManagerChangeInit>(COMP_MANAGER_PATHS.init, undefined, { ...byComp(compCode), loading: false }),
  view: (bizCode: string) => post<ManagerChangeView>(COMP_MANAGER_PATHS.view, undefined, byCode(bizCode)),
  /** Candidates for 新管理员, searched and paged on the server. */
  candidates: (body: ManagerCandidateListInput) =>
    post<Page<CompUserOption>>(COMP_MANAGER_PATHS.users, body, { loading: false }),
  save: (body: ManagerChangeSave, opts: UpdateOptions) => update<Saved>(COMP_MANAGER_PATHS.save, body, opts),
  remove: (bizCode: string) =>
    update(COMP_MANAGER_PATHS.del, undefined, {
      ...byCode(bizCode),
      confirm: '确定要删除该管理员变更单吗？',
    }),
};

/**
 * The cache keys: 企业信息变更's reads (view, init, history) under `crmChange`, 管理员变更's under
 * `crmManager`; a save or a decision of the one refreshes its root.
 */
export const crmChangeKeys = {
  info: ['crmChange'] as const,
  manager: ['crmManager'] as const,
  /** A kind's server list (its path is its key). */
  list: (listPath: string) => ['list', listPath] as const,
};

/** The root of one kind's keys. */
export type ChangeRoot = typeof crmChangeKeys.info | typeof crmChangeKeys.manager;

/** The change reads as query options (`useQuery(crmChangeQueries.infoView(bizCode))`). */
export const crmChangeQueries = {
  infoView: (bizCode: string) =>
    queryOptions({
      queryKey: [...crmChangeKeys.info, 'view', bizCode],
      queryFn: () => changeApi.view(bizCode),
      enabled: !!bizCode,
    }),
  /** A new change's starting values: the customer as it is. */
  infoInit: (compCode: string) =>
    queryOptions({
      queryKey: [...crmChangeKeys.info, 'init', compCode],
      queryFn: () => changeApi.init(compCode),
      enabled: !!compCode,
      gcTime: 0,
      retry: false,
    }),
  managerView: (bizCode: string) =>
    queryOptions({
      queryKey: [...crmChangeKeys.manager, 'view', bizCode],
      queryFn: () => managerApi.view(bizCode),
      enabled: !!bizCode,
    }),
  managerInit: (compCode: string | undefined) =>
    queryOptions({
      queryKey: [...crmChangeKeys.manager, 'init', compCode],
      queryFn: () => managerApi.init(compCode!),
      enabled: !!compCode,
      retry: false,
    }),
  /** 变更历史 of a customer, one page, under the view's root (its refresh after 审核 refetches it). */
  history: (root: ChangeRoot, compCode: string, pageNum: number, pageSize: number) =>
    queryOptions({
      queryKey: [...root, 'history', compCode, pageNum],
      queryFn: () => changeApi.history({ compCode, pageNum, pageSize }),
      enabled: !!compCode,
      placeholderData: (prev) => prev,
    }),
  /** Candidates for 新管理员 matching `keyword`, the first page. */
  candidates: (compCode: string | undefined, keyword: string, pageSize: number) =>
    queryOptions({
      queryKey: [...crmChangeKeys.manager, 'users', compCode, keyword],
      queryFn: () =>
        managerApi.candidates({ compCode: compCode!, keyword: keyword || undefined, pageNum: 1, pageSize }),
      enabled: !!compCode,
      placeholderData: (prev) => prev,
    }),
};
