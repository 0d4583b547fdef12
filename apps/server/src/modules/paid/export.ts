import { PAID_EXPORT_FILE_NAME, PAID_KIND_LABELS, type PaidRow } from '@portal/contract/accounts';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<PaidRow>[] = [
  { header: '核销编号', width: 15, value: (r) => r.paidBizCode },
  { header: '来款编号', width: 15, value: (r) => r.fiidBizCode },
  { header: '付款人名称', width: 30, value: (r) => r.payerName },
  { header: '合同号', width: 20, value: (r) => r.contractNo },
  { header: '客户名称', width: 30, value: (r) => r.custName },
  { header: '核销日期', width: 12, value: (r) => r.paidDate },
  { header: '核销类型', width: 12, value: (r) => PAID_KIND_LABELS[r.kind] },
  { header: '核销金额', width: 18, money: true, value: (r) => r.amount },
  { header: '其中本金', width: 18, money: true, value: (r) => r.principal },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '已冲红', width: 8, value: (r) => (r.red ? '是' : '否') },
];

/** 来款核销 导出: the list's rows, page after page of its own query. */
export function paidExport(page: ListExport<PaidRow>['page']): ListExport<PaidRow> {
  return {
    fileName: PAID_EXPORT_FILE_NAME,
    sheetName: '来款核销',
    columns: COLUMNS,
    unit: '笔',
    page,
    // A reversed write-off is listed (已冲红) but is not money received (docs/money-rules.md "Totals").
    inForce: (r) => r.state === 'approved' && !r.red,
  };
}
