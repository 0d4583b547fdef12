import { queryOptions } from '@tanstack/react-query';
import {
  COMPANY_EXPORT_FILE_NAME,
  COMPANY_PATHS,
  type CompanyAdd,
  type CompanyUpdate,
  type CompanyView,
} from '@portal/contract/company';
import { companyKeys } from '../../shared/company/api';
import { exportFile, post, update, type ExportOptions } from '../../shared/request/http';

export const COMPANY_LIST_KEY = ['list', COMPANY_PATHS.list] as const;

const viewCompany = (compCode: string) =>
  post<CompanyView>(COMPANY_PATHS.view, undefined, { query: { compCode } });

/** The company reads as query options (keys under the shared `companyKeys.all`). */
export const companyEditQueries = {
  view: (compCode: string | undefined) =>
    queryOptions({
      queryKey: [...companyKeys.all, 'view', compCode],
      queryFn: () => viewCompany(compCode!),
      enabled: !!compCode,
    }),
};

export const addCompany = (body: CompanyAdd) => update<{ compCode: string }>(COMPANY_PATHS.add, body);
export const updateCompany = (body: CompanyUpdate) =>
  update<{ compCode: string }>(COMPANY_PATHS.update, body);
export const deleteCompany = (compCode: string, compName: string) =>
  update(COMPANY_PATHS.del, undefined, {
    query: { compCode },
    confirm: `确定要删除企业客户「${compName}」吗？`,
  });
export const setCompanyState = (compCode: string, compName: string, enable: boolean) =>
  update(enable ? COMPANY_PATHS.enable : COMPANY_PATHS.disable, undefined, {
    query: { compCode },
    confirm: `确定要${enable ? '启用' : '停用'}企业客户「${compName}」吗？`,
  });
export const exportCompanies = (filters: Record<string, unknown>, opts: ExportOptions = {}) =>
  exportFile(
    COMPANY_PATHS.listExport,
    { ...filters, pageNum: 1, pageSize: 20 },
    { fileName: COMPANY_EXPORT_FILE_NAME, ...opts },
  );
