import { PA_EXPORT_FILE_NAME, PA_METHOD_LABELS, type PaRow } from '@portal/contract/prepayment';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<PaRow>[] = [
  { header: '前期款编号', width: 15, value: (r) => r.preamtBizCode },
  { header: '合同号', width: 20, value: (r) => r.contractNo },
  { header: '客户名称', width: 30, value: (r) => r.custName },
  { header: '收取方式', width: 12, value: (r) => PA_METHOD_LABELS[r.method] },
  { header: '收取日期', width: 12, value: (r) => r.receiveDate },
  { header: '收取金额', width: 18, money: true, value: (r) => r.amount },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
];

/** 前期款 导出: the list's rows, page after page of its own query. */
export function paExport(page: ListExport<PaRow>['page']): ListExport<PaRow> {
  return {
    fileName: PA_EXPORT_FILE_NAME,
    sheetName: '前期款',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved',
  };
}
