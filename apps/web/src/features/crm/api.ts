import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { COMPANY_PATHS, type CompanyView } from '@portal/contract/company';
import { CRM_PATHS, type DeptNode, type RelationGraph } from '@portal/contract/crm';
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

const deptTreeKey = (compCode: string | undefined) => ['crm', 'depts', compCode] as const;

export function useDeptTree(compCode: string | undefined) {
  return useQuery({
    queryKey: deptTreeKey(compCode),
    queryFn: () => post<DeptNode[]>(CRM_PATHS.orgTree, undefined, { query: { compCode: compCode! } }),
    enabled: !!compCode,
  });
}

/** After a department changed: the tree is no list, so the update's list refresh misses it. */
export function useRefreshDeptTree(compCode: string | undefined): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: deptTreeKey(compCode) });
}

const RELATION_GRAPH_KEY = ['crm', 'relationGraph'] as const;

/** 关系图 around `compCode` (every enterprise without one). */
export function useRelationGraph(compCode: string | undefined, validOnly: boolean) {
  return useQuery({
    queryKey: [...RELATION_GRAPH_KEY, compCode, validOnly],
    queryFn: () => call<RelationGraph>(CRM_PATHS.relationGraph, { compCode, validOnly }),
  });
}

/** After a relation changed: the graph is no list, so the update's list refresh misses it. */
export function useRefreshRelationGraph(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: RELATION_GRAPH_KEY });
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
