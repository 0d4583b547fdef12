import { useQuery } from '@tanstack/react-query';
import {
  COMPANY_EXPORT_FILE_NAME,
  COMPANY_INFO_DICT,
  COMPANY_PATHS,
  type CompanyAdd,
  type CompanyInfoDict,
  type CompanyUpdate,
  type CompanyView,
  type DictItem,
  type UsccCheckResult,
} from '@portal/contract/company';
import { GEO_PATHS, type LinkageNode } from '@portal/contract/geo';
import { exportFile, post, update, type ExportOptions } from '../../shared/request/http';

export const COMPANY_LIST_KEY = ['list', COMPANY_PATHS.list] as const;

export const viewCompany = (compCode: string) =>
  post<CompanyView>(COMPANY_PATHS.view, undefined, { query: { compCode } });
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
export const checkUscc = (usccCode: string, compCode?: string) =>
  post<UsccCheckResult>(COMPANY_PATHS.checkUscc, { usccCode, compCode }, { loading: false });
export const findSupComp = (compName: string) =>
  post<{ compCode: string; compName: string; usccCode: string }[]>(COMPANY_PATHS.supCompFind, undefined, {
    query: { compName },
    loading: false,
  });
export const exportCompanies = (filters: Record<string, unknown>, opts: ExportOptions = {}) =>
  exportFile(
    COMPANY_PATHS.listExport,
    { ...filters, pageNum: 1, pageSize: 20 },
    { fileName: COMPANY_EXPORT_FILE_NAME, ...opts },
  );

export function useInfoDict() {
  return useQuery({
    queryKey: ['company', 'infoDict'],
    queryFn: () => post<CompanyInfoDict>(COMPANY_PATHS.infoDict, undefined, { loading: false }),
    staleTime: Infinity,
    placeholderData: COMPANY_INFO_DICT,
  });
}

/** Customers for pickers in other screens ({code,label}). */
export function useCompanyDict(all = false) {
  return useQuery({
    queryKey: ['company', 'dict', all],
    queryFn: () => post<DictItem[]>(COMPANY_PATHS.dict, all ? { all } : {}, { loading: false }),
    staleTime: 60_000,
  });
}

/** The province / city / district tree for the cascader (SPEC §7.10 linkage/list). */
export function useLinkage() {
  return useQuery({
    queryKey: ['geo', 'linkage'],
    queryFn: () => post<LinkageNode[]>(GEO_PATHS.linkage, undefined, { loading: false }),
    staleTime: Infinity,
  });
}
