import { queryOptions } from '@tanstack/react-query';
import { PA_PATHS, type PaInit, type PaView } from '@portal/contract/prepayment';
import { post, update } from '../../shared/request/http';

export const PA_ROUTES = {
  list: '/factoring/pa/mgr',
  editor: '/factoring/pa/mgr-editor/basic-info',
  view: '/factoring/pa/mgr-view/basic-info',
} as const;

const byCode = (preamtBizCode: string) => ({ query: { preamtBizCode } });

/** The 前期款 calls as the screens use them. */
export const paApi = {
  view: (code: string) => post<PaView>(PA_PATHS.viewBaseInfo, undefined, byCode(code)),
  init: (contBizCode: string) => post<PaInit>(PA_PATHS.initBase, undefined, { query: { contBizCode } }),
  /** Saves (and submits) the prepayment, after the confirmation (此操作将保存前期款…！ 是否继续？). */
  save: (body: Record<string, unknown>, submit: boolean) =>
    update<{ preamtBizCode: string; version: number }>(
      PA_PATHS.saveBaseInfo,
      { ...body, submit },
      { confirm: `此操作将保存前期款${submit ? '并提交审批' : ''}！ 是否继续？` },
    ),
  remove: (code: string) =>
    update(PA_PATHS.deleteInfo, undefined, { ...byCode(code), confirm: '确定要删除该前期款吗？' }),
};

/** The keys of the 前期款 queries: every save invalidates `all`. */
export const paKeys = {
  all: ['pa'] as const,
  view: (code: string) => ['pa', code] as const,
  init: (contBizCode: string) => ['pa', 'init', contBizCode] as const,
};

/** The 前期款 reads as query options. */
export const paQueries = {
  /** One prepayment as its editor loads it. */
  view: (code: string) =>
    queryOptions({ queryKey: paKeys.view(code), queryFn: () => paApi.view(code), enabled: !!code }),
  /** A new prepayment's prefill from its contract (the contract's open up-front dues). */
  init: (contBizCode: string, enabled: boolean) =>
    queryOptions({
      queryKey: paKeys.init(contBizCode),
      queryFn: () => paApi.init(contBizCode),
      enabled,
      retry: false,
    }),
};
