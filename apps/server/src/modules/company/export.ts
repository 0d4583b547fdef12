import {
  COMP_ROLE_LABELS,
  COMP_STATE_LABELS,
  COMP_TYPE_LABELS,
  COMPANY_EXPORT_FILE_NAME,
  INDUSTRY_LABELS,
  type CompanyRow,
} from '@portal/contract/company';
import { formatDateTime } from '@portal/contract/format';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<CompanyRow>[] = [
  { header: '企业编号', width: 15, value: (c) => c.compCode },
  { header: '企业名称', width: 36, value: (c) => c.compName },
  { header: '统一社会信用代码', width: 22, value: (c) => c.usccCode },
  { header: '企业类型', width: 12, value: (c) => COMP_TYPE_LABELS[c.compType] ?? c.compType },
  { header: '客户角色', width: 20, value: (c) => c.roles.map((r) => COMP_ROLE_LABELS[r] ?? r).join('、') },
  { header: '法定代表人', width: 12, value: (c) => c.legalPerson },
  { header: '注册资本（元）', width: 20, money: true, value: (c) => c.regCapital },
  { header: '成立日期', width: 12, value: (c) => c.establishDate },
  { header: '所在地区', width: 26, value: (c) => c.regionName },
  { header: '详细地址', width: 36, value: (c) => c.address },
  {
    header: '所属行业',
    width: 24,
    value: (c) => (c.industry ? (INDUSTRY_LABELS[c.industry] ?? c.industry) : null),
  },
  { header: '联系人', width: 12, value: (c) => c.contactName },
  { header: '联系电话', width: 16, value: (c) => c.contactPhone },
  { header: '上级企业', width: 30, value: (c) => c.parentCompName },
  { header: '状态', width: 8, value: (c) => COMP_STATE_LABELS[c.state] ?? c.state },
  { header: '创建时间', width: 20, value: (c) => formatDateTime(c.createdAt) },
];

/**
 * 企业客户明细表 (listExport): the list's rows, page after page of its own query, with
 * registered capital as numeric cells and its exact sum in the 合计 row (platform/http/export.ts).
 */
export function companyExport(page: ListExport<CompanyRow>['page']): ListExport<CompanyRow> {
  return { fileName: COMPANY_EXPORT_FILE_NAME, sheetName: '企业客户', columns: COLUMNS, unit: '户', page };
}
