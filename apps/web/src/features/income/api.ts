import { queryOptions } from '@tanstack/react-query';
import { INCOME_PATHS, type IncomeImportPreview, type IncomeView } from '@portal/contract/accounts';
import { post, update } from '../../shared/request/http';
import { postXlsx } from '../../shared/request/upload-xlsx';

export const INCOME_ROUTES = {
  list: '/factoring/accounts/income',
  editor: '/factoring/accounts/income-editor',
  view: '/factoring/accounts/income-view',
} as const;

const byCode = (fiidBizCode: string) => ({ query: { fiidBizCode } });

/** The 来款 calls as the screens use them. */
export const incomeApi = {
  view: (code: string) => post<IncomeView>(INCOME_PATHS.viewBaseInfo, undefined, byCode(code)),
  /** Saves (and submits) the incoming, after the confirmation (此操作将保存来款…！ 是否继续？). */
  save: (body: Record<string, unknown>, submit: boolean) =>
    update<{ fiidBizCode: string; version: number }>(
      INCOME_PATHS.saveBaseInfo,
      { ...body, submit },
      { confirm: `此操作将保存来款${submit ? '并提交审批' : ''}！ 是否继续？` },
    ),
  remove: (code: string) =>
    update(INCOME_PATHS.deleteInfo, undefined, { ...byCode(code), confirm: '确定要删除该来款吗？' }),
  /** A bank statement xlsx -> per-row preview with duplicates; nothing saved. */
  previewImport: (file: File) => postXlsx<IncomeImportPreview>(INCOME_PATHS.resolveIncomeExcel, file),
  /** Saves the valid rows of a preview and submits them, after the confirmation. */
  saveImport: (rows: IncomeImportPreview['valid']) =>
    update<{ codes: string[] }>(
      INCOME_PATHS.importSave,
      { rows, submit: true },
      { confirm: `此操作将保存${rows.length}条来款并提交审批！ 是否继续？` },
    ),
};

/** The keys of the 来款 queries: every save invalidates `all`. */
export const incomeKeys = {
  all: ['income'] as const,
  view: (code: string) => ['income', code] as const,
};

/** The 来款 reads as query options. */
export const incomeQueries = {
  /** One incoming as its editor loads it. */
  view: (code: string) =>
    queryOptions({
      queryKey: incomeKeys.view(code),
      queryFn: () => incomeApi.view(code),
      enabled: !!code,
    }),
};
