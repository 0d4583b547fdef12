import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@portal/contract/api';
import { CREDIT_PATHS } from '@portal/contract/credit';
import type {
  CollateralRow,
  CreditListRow,
  ChangeView,
  CreditView,
  DictItem,
  DistView,
  FtRow,
  GuaranteeRow,
  HistoryRow,
  ImportPreviewRow,
  InvoiceVerdict,
  LineFigures,
  ReceivableRow,
  UtilisationRow,
} from '@portal/contract/credit';
import type { FileInfo } from '@portal/contract/files';
import { post, update, type UpdateResult } from '../../shared/request/http';
import { postXlsx } from '../../shared/request/upload-xlsx';
import { postDict } from '../../shared/request/dict';

/** The credit calls as the screens use them. */
export interface Saved {
  bizCode: string;
  version: number;
  state?: string;
}

const byCode = (bizCode: string, credBizCode?: string) => ({
  query: credBizCode ? { bizCode, credBizCode } : { bizCode },
});

export const creditApi = {
  dict: () => postDict<DictItem>(CREDIT_PATHS.dict, {}),
  platform: (bizCode: string) => post<CreditView>(CREDIT_PATHS.creditPlatform, undefined, byCode(bizCode)),
  guarantees: (bizCode: string) => post<GuaranteeRow[]>(CREDIT_PATHS.creditGua, undefined, byCode(bizCode)),
  collaterals: (bizCode: string) =>
    post<CollateralRow[]>(CREDIT_PATHS.creditCollateral, undefined, byCode(bizCode)),
  ft: (bizCode: string) => post<FtRow[]>(CREDIT_PATHS.creditFt, undefined, byCode(bizCode)),
  receivables: (bizCode: string) =>
    post<ReceivableRow[]>(CREDIT_PATHS.receivables, undefined, byCode(bizCode)),
  history: (bizCode: string) => post<HistoryRow[]>(CREDIT_PATHS.creditHistory, undefined, byCode(bizCode)),
  files: (bizCode: string) => post<FileInfo[]>(CREDIT_PATHS.credFile, undefined, byCode(bizCode)),
  distribution: (bizCode: string) =>
    post<DistView>(CREDIT_PATHS.credDistribution, undefined, byCode(bizCode)),
  distFiles: (bizCode: string) =>
    post<FileInfo[]>(CREDIT_PATHS.credDistributionFile, undefined, byCode(bizCode)),
  change: (bizCode: string) => post<ChangeView>(CREDIT_PATHS.credChange, undefined, byCode(bizCode)),
  customers: () =>
    post<{ code: string; label: string }[]>(CREDIT_PATHS.compList, undefined, { query: { compdif: 'all' } }),
  lines: (custCode: string) => post<LineFigures[]>(CREDIT_PATHS.lines, undefined, { query: { custCode } }),
  utilisation: (filters: { custCode?: string; custName?: string } = {}) =>
    post<UtilisationRow[]>(CREDIT_PATHS.utilisation, filters, { loading: false }),
  /** Saves with the confirmation (此操作将保存…！ 是否继续？). */
  save: <T = Saved>(path: string, body: unknown, what: string): Promise<UpdateResult<T>> =>
    update<T>(path, body, { confirm: `此操作将保存${what}！ 是否继续？` }),
  verify: (body: unknown) => post<{ verdicts: InvoiceVerdict[] }>(CREDIT_PATHS.saveInvoiceVerification, body),
  remove: (path: string, bizCode: string, what: string) =>
    update(path, undefined, { query: { bizCode }, confirm: `确定要删除该${what}吗？` }),
};

/** The credit cache keys; every credit, distribution or change saved makes all of them stale. */
export const creditKeys = {
  all: ['credit'] as const,
  part: (part: string, ...args: unknown[]) => ['credit', part, ...args] as const,
};

/** One read of a credit document by its code, asked once there is a code. */
const byDoc = <T>(part: string, bizCode: string | undefined, fetch: (bizCode: string) => Promise<T>) =>
  queryOptions({
    queryKey: creditKeys.part(part, bizCode),
    queryFn: () => fetch(bizCode!),
    enabled: !!bizCode,
  });

/**
 * The credit reads as query options (`useQuery(creditQueries.platform(bizCode))`): one key and
 * fetcher per read wherever a screen shows it (授信编辑 and 授信查看 share theirs).
 */
export const creditQueries = {
  platform: (bizCode: string | undefined) => byDoc('platform', bizCode, creditApi.platform),
  ft: (bizCode: string | undefined) => byDoc('ft', bizCode, creditApi.ft),
  receivables: (bizCode: string | undefined) => byDoc('rec', bizCode, creditApi.receivables),
  history: (bizCode: string | undefined) => byDoc('history', bizCode, creditApi.history),
  files: (bizCode: string | undefined) => byDoc('files', bizCode, creditApi.files),
  guarantees: (bizCode: string | undefined) => byDoc('gua', bizCode, creditApi.guarantees),
  collaterals: (bizCode: string | undefined) => byDoc('coll', bizCode, creditApi.collaterals),
  distribution: (bizCode: string | undefined) => byDoc('dist', bizCode, creditApi.distribution),
  distFiles: (bizCode: string | undefined) => byDoc('distFiles', bizCode, creditApi.distFiles),
  change: (bizCode: string | undefined) => byDoc('chg', bizCode, creditApi.change),
  /** A customer's lines (平台, 保理, 分配). */
  lines: (custCode: string | undefined) => byDoc('lines', custCode, creditApi.lines),
  customers: () => queryOptions({ queryKey: creditKeys.part('customers'), queryFn: creditApi.customers }),
  /** 授信额度使用情况, of one customer or of all; a refusal is shown, not retried. */
  utilisation: (custCode: string | undefined) =>
    queryOptions({
      queryKey: creditKeys.part('utilisation', custCode ?? ''),
      queryFn: () => creditApi.utilisation(custCode ? { custCode } : {}),
      retry: false,
    }),
  /** The approved credits, which a distribution or a change is made on. */
  approvedCredits: () =>
    queryOptions({
      queryKey: creditKeys.part('approvedCredits'),
      queryFn: () =>
        post<Page<CreditListRow>>(CREDIT_PATHS.creditList, { pageNum: 1, pageSize: 500, state: 'approved' }),
    }),
};

/** import/receivables: an xlsx -> per-row preview; nothing saved. */
export async function importReceivables(file: File, credBizCode?: string): Promise<ImportPreviewRow[]> {
  const rows = await postXlsx<ImportPreviewRow[]>(
    CREDIT_PATHS.importReceivables,
    file,
    credBizCode ? { credBizCode } : {},
  );
  return rows ?? [];
}

export const CREDIT_ROUTES = {
  list: '/factoring/credit/info',
  editor: '/factoring/credit/info-editor',
  view: '/factoring/credit/info-view',
  distList: '/factoring/credit/distribution',
  distEditor: '/factoring/credit/distribution-editor',
  distView: '/factoring/credit/distribution-view',
  chgList: '/factoring/credit/change',
  chgEditor: '/factoring/credit/change-editor',
  chgView: '/factoring/credit/change-view',
} as const;
