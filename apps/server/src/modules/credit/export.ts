import {
  CREDIT_EXPORT_FILE_NAME,
  CYCLE_LABELS,
  PRODUCT_LABELS,
  type CreditListRow,
} from '@portal/contract/credit';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<CreditListRow>[] = [
  { header: '授信编号', width: 15, value: (r) => r.bizCode },
  { header: '客户名称', width: 32, value: (r) => r.custName },
  {
    header: '产品',
    width: 14,
    value: (r) => PRODUCT_LABELS[r.product as keyof typeof PRODUCT_LABELS] ?? r.product,
  },
  { header: '额度类型', width: 10, value: (r) => CYCLE_LABELS[r.cycle] },
  { header: '授信额度', width: 18, money: true, value: (r) => r.limitAmount },
  { header: '已占用', width: 18, money: true, value: (r) => r.occupiedAmount },
  { header: '可用额度', width: 18, money: true, value: (r) => r.availableAmount },
  { header: '起始日', width: 12, value: (r) => r.startDate },
  { header: '到期日', width: 12, value: (r) => r.endDate },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '冻结', width: 8, value: (r) => (r.frozen === null ? '' : r.frozen ? '是' : '否') },
];

/** 授信 导出: the list's rows, page after page of its own query. */
export function creditExport(page: ListExport<CreditListRow>['page']): ListExport<CreditListRow> {
  return { fileName: CREDIT_EXPORT_FILE_NAME, sheetName: '授信', columns: COLUMNS, unit: '笔', page };
}
