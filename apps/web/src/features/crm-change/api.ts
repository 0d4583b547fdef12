import { useQuery } from '@tanstack/react-query';
import { COMPANY_PATHS, type DictItem } from '@portal/contract/company';
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
import { postDict } from '../../shared/request/dict';

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

/** Customers for the picker ({code,label}). */
export function useCustomers() {
  return useQuery({
    queryKey: ['company', 'dict', false],
    queryFn: () => postDict<DictItem>(COMPANY_PATHS.dict, {}, { loading: false }),
    staleTime: 60_000,
  });
}
