import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Page } from '@portal/contract/api';
import { BANK_PATHS, type BankAccountView } from '@portal/contract/bank';
import { COMPANY_PATHS, type CompanyView } from '@portal/contract/company';
import {
  CRM_PATHS,
  type BankUserList,
  type CompUserRow,
  type DeptNode,
  type RelationGraph,
  type UserState,
} from '@portal/contract/crm';
import type { FileInfo } from '@portal/contract/files';
import { post, update, type Query, type UpdateOptions } from '../../shared/request/http';

export const CORP_EDIT_PATH = '/crm/corporation/edit';
export const CORP_VIEW_PATH = '/crm/corporation/view';
export const BANK_EDIT_PATH = '/crm/corporation/bank-editor';
export const BANK_VIEW_PATH = '/crm/corporation/bank-view';
export const FIRM_CHECK_PATH = '/crm/frim/frimcheck';

/** Menu / button codes of the CRM screens (menus.ts). */
export const CRM_MENUS = {
  list: 'crm-cor-cor',
  edit: 'crm-cor-cor-e',
  view: 'crm-cor-cor-v',
  bank: 'crm-cor-bank',
  org: 'crm-cor-org',
  rel: 'crm-cor-rel',
  firm: 'crm-frim',
} as const;

/** The customer a tab page is about (`?compCode=`). */
export function useCompCode(): string | undefined {
  const [params] = useSearchParams();
  return params.get('compCode') ?? undefined;
}

/** A call answering data. */
const call = <T>(path: string, body?: unknown, query?: Query) =>
  post<T>(path, body, query ? { query } : undefined);

/** An update call (操作成功！ / 操作失败！). */
export const change = <T = unknown>(path: string, body?: unknown, opts: UpdateOptions = {}) =>
  update<T>(path, body, opts);

/**
 * The CRM cache keys: every read below is under `crm`; `part(name, ...)` is one kind of read (a
 * prefix of its keys, for an invalidation of every customer's).
 */
export const crmKeys = {
  all: ['crm'] as const,
  part: (part: string, ...args: unknown[]) => ['crm', part, ...args] as const,
  /** The server-paged lists of 企业管理 and 银行信息管理. */
  list: (path: string) => ['list', 'crm', path] as const,
  /** 企业用户注册审核's list (the list's own key from its path). */
  firmList: ['list', CRM_PATHS.firmList] as const,
};

/** The CRM reads as query options (`useQuery(crmQueries.customer(compCode))`). */
export const crmQueries = {
  customer: (compCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part('customer', compCode),
      queryFn: () => call<CompanyView>(COMPANY_PATHS.view, undefined, { compCode: compCode! }),
      enabled: !!compCode,
    }),
  deptTree: (compCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part('depts', compCode),
      queryFn: () => post<DeptNode[]>(CRM_PATHS.orgTree, undefined, { query: { compCode: compCode! } }),
      enabled: !!compCode,
    }),
  /** 关系图 around `compCode` (every enterprise without one). */
  relationGraph: (compCode: string | undefined, validOnly: boolean) =>
    queryOptions({
      queryKey: crmKeys.part('relationGraph', compCode, validOnly),
      queryFn: () => call<RelationGraph>(CRM_PATHS.relationGraph, { compCode, validOnly }),
    }),
  /** One record per customer (开票信息, 企业介绍, …), read by compCode from its view path. */
  record: <T>(path: string, compCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part(path, compCode),
      queryFn: () => call<T | null>(path, undefined, { compCode: compCode! }),
      enabled: !!compCode,
    }),
  files: (compCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part('files', compCode),
      queryFn: () => call<FileInfo[]>(CRM_PATHS.fileList, undefined, { compCode: compCode! }),
      enabled: !!compCode,
    }),
  /** One page of a customer's enterprise users matching `term` (digits: the mobile), without the overlay. */
  userSearch: (compCode: string | undefined, term: string, state: UserState | undefined, pageSize: number) =>
    queryOptions({
      queryKey: crmKeys.part('users', compCode, 'search', term, state),
      queryFn: () =>
        post<Page<CompUserRow>>(
          CRM_PATHS.employeeList,
          {
            compCode,
            pageNum: 1,
            pageSize,
            ...(state ? { state } : {}),
            ...(term ? (/^\d+$/.test(term) ? { mobile: term } : { userName: term }) : {}),
          },
          { loading: false },
        ),
      enabled: !!compCode,
      placeholderData: keepPreviousData,
    }),
  /** A registration of 企业用户注册审核. */
  firm: (userCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part('firm', userCode),
      queryFn: () => call<CompUserRow>(CRM_PATHS.firmView, undefined, { userCode: userCode! }),
      enabled: !!userCode,
    }),
  bankAccount: (bizCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part('bank', bizCode),
      queryFn: () => call<BankAccountView>(BANK_PATHS.view, undefined, { bizCode: bizCode! }),
      enabled: !!bizCode,
    }),
  /** The enterprise users authorised to operate a bank account. */
  bankUsers: (bizCode: string | undefined) =>
    queryOptions({
      queryKey: crmKeys.part('bankUsers', bizCode),
      queryFn: () => call<BankUserList>(CRM_PATHS.bankUserList, undefined, { bizCode: bizCode! }),
      enabled: !!bizCode,
    }),
};

export function useCustomer(compCode: string | undefined) {
  return useQuery(crmQueries.customer(compCode));
}

export function useDeptTree(compCode: string | undefined) {
  return useQuery(crmQueries.deptTree(compCode));
}

/** After a department changed: the tree is no list, so the update's list refresh misses it. */
export function useRefreshDeptTree(compCode: string | undefined): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: crmQueries.deptTree(compCode).queryKey });
}

/** 关系图 around `compCode` (every enterprise without one). */
export function useRelationGraph(compCode: string | undefined, validOnly: boolean) {
  return useQuery(crmQueries.relationGraph(compCode, validOnly));
}

/** After a relation changed: the graph is no list, so the update's list refresh misses it. */
export function useRefreshRelationGraph(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: crmKeys.part('relationGraph') });
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
