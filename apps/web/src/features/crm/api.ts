import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Page } from '@portal/contract/api';
import { BANK_PATHS, type BankDictItem } from '@portal/contract/bank';
import {
  COMPANY_INFO_DICT,
  COMPANY_PATHS,
  type CompanyInfoDict,
  type CompanyView,
  type DictItem,
} from '@portal/contract/company';
import { CRM_PATHS, type CompUserRow, type DeptNode } from '@portal/contract/crm';
import { GEO_PATHS, type LinkageNode } from '@portal/contract/geo';
import { post, update, type Query, type UpdateOptions } from '../../shared/request/http';

export const CORP_LIST_PATH = '/crm/corporation/list';
export const CORP_EDIT_PATH = '/crm/corporation/edit';
export const CORP_VIEW_PATH = '/crm/corporation/view';
export const BANK_LIST_PATH = '/crm/corporation/bank';
export const BANK_EDIT_PATH = '/crm/corporation/bank-editor';
export const BANK_VIEW_PATH = '/crm/corporation/bank-view';
export const FRIM_CHECK_PATH = '/crm/frim/frimcheck';

/** Menu / button codes of the CRM screens (menus.ts). */
export const M = {
  list: 'crm-cor-cor',
  edit: 'crm-cor-cor-e',
  view: 'crm-cor-cor-v',
  bank: 'crm-cor-bank',
  org: 'crm-cor-org',
  rel: 'crm-cor-rel',
  frim: 'crm-frim',
} as const;

/** The customer a tab page is about (`?compCode=`). */
export function useCompCode(): string | undefined {
  const [params] = useSearchParams();
  return params.get('compCode') ?? undefined;
}

/** A call answering data. */
export const call = <T>(path: string, body?: unknown, query?: Query) =>
  post<T>(path, body, query ? { query } : undefined);

/** An update call (操作成功！ / 操作失败！). */
export const change = <T = unknown>(path: string, body?: unknown, opts: UpdateOptions = {}) =>
  update<T>(path, body, opts);

export function useCustomer(compCode: string | undefined) {
  return useQuery({
    queryKey: ['crm', 'customer', compCode],
    queryFn: () => call<CompanyView>(COMPANY_PATHS.view, undefined, { compCode: compCode! }),
    enabled: !!compCode,
  });
}

export function useInfoDict() {
  return useQuery({
    queryKey: ['company', 'infoDict'],
    queryFn: () => post<CompanyInfoDict>(COMPANY_PATHS.infoDict, undefined, { loading: false }),
    staleTime: Infinity,
    placeholderData: COMPANY_INFO_DICT,
  });
}

export function useLinkage() {
  return useQuery({
    queryKey: ['geo', 'linkage'],
    queryFn: () => post<LinkageNode[]>(GEO_PATHS.linkage, undefined, { loading: false }),
    staleTime: Infinity,
  });
}

export function useCompanyDict() {
  return useQuery({
    queryKey: ['company', 'dict', false],
    queryFn: () => post<DictItem[]>(COMPANY_PATHS.dict, {}, { loading: false }),
    staleTime: 60_000,
  });
}

export function useBankDict() {
  return useQuery({
    queryKey: ['bank', 'dict'],
    queryFn: () => post<BankDictItem[]>(BANK_PATHS.dict, undefined, { loading: false }),
    staleTime: Infinity,
  });
}

/** Users of one customer for pickers (at most 500). */
export function useCompUsers(compCode: string | undefined) {
  return useQuery({
    queryKey: ['crm', 'users', compCode],
    queryFn: () =>
      post<Page<CompUserRow>>(
        CRM_PATHS.employeeList,
        { compCode, pageNum: 1, pageSize: 500 },
        { loading: false },
      ),
    enabled: !!compCode,
  });
}

export function useDeptTree(compCode: string | undefined) {
  return useQuery({
    queryKey: ['crm', 'depts', compCode],
    queryFn: () => post<DeptNode[]>(CRM_PATHS.orgTree, undefined, { query: { compCode: compCode! } }),
    enabled: !!compCode,
  });
}

export interface TreeOption {
  value: string;
  title: string;
  key: string;
  disabled?: boolean;
  children: TreeOption[];
}

/** The department tree as TreeSelect data; `exclude` (and its subtree) is disabled. */
export function deptOptions(nodes: readonly DeptNode[], exclude?: string, inside = false): TreeOption[] {
  return nodes.map((n) => {
    const off = inside || n.deptCode === exclude;
    return {
      value: n.deptCode,
      key: n.deptCode,
      title: n.deptName,
      ...(off ? { disabled: true } : {}),
      children: deptOptions(n.children, exclude, off),
    };
  });
}
