import { queryOptions } from '@tanstack/react-query';
import { CLASS_PATHS, type ClassAdjInit, type ClassAdjView } from '@portal/contract/classification';
import { post, update } from '../../shared/request/http';

/** 五级分类 screens (docs/classification.md). */
export const CLASS_ROUTES = {
  list: '/factoring/accounts/classification',
  editor: '/factoring/accounts/classification-editor',
  view: '/factoring/accounts/classification-view',
} as const;
const byCode = (adjBizCode: string) => ({ query: { adjBizCode } });

export const classApi = {
  view: (code: string) => post<ClassAdjView>(CLASS_PATHS.viewBaseInfo, undefined, byCode(code)),
  init: (contBizCode: string) =>
    post<ClassAdjInit>(CLASS_PATHS.initBase, undefined, { query: { contBizCode } }),
  remove: (code: string) =>
    update(CLASS_PATHS.deleteInfo, undefined, { ...byCode(code), confirm: '确定要删除该分类调整单吗？' }),
};

/** The keys of the 分类调整单 queries (the distribution's, shared/classification, are under `all` too). */
export const classKeys = {
  all: ['classification'] as const,
  adj: (code: string) => ['classification', 'adj', code] as const,
  init: (contBizCode: string) => ['classification', 'init', contBizCode] as const,
};

/** The 分类调整单 reads as query options. */
export const classQueries = {
  adj: (code: string) =>
    queryOptions({ queryKey: classKeys.adj(code), queryFn: () => classApi.view(code), enabled: !!code }),
  /** A new 分类调整单's prefill from its contract. */
  init: (contBizCode: string, enabled: boolean) =>
    queryOptions({
      queryKey: classKeys.init(contBizCode),
      queryFn: () => classApi.init(contBizCode),
      enabled,
      retry: false,
    }),
};
