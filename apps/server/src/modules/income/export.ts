import { INCOME_EXPORT_FILE_NAME, INCOME_SOURCE_LABELS, type IncomeRow } from '@portal/contract/accounts';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<IncomeRow>[] = [
  { header: '来款编号', width: 15, value: (r) => r.fiidBizCode },
  { header: '付款人名称', width: 30, value: (r) => r.payerName },
  { header: '付款人账号', width: 24, value: (r) => r.payerAccount },
  { header: '付款人开户行', width: 24, value: (r) => r.payerBank },
  { header: '收款账户', width: 24, value: (r) => r.bankAccountNo },
  { header: '来款金额', width: 18, money: true, value: (r) => r.amount },
  { header: '已核销', width: 18, money: true, value: (r) => r.allocated },
  { header: '余额', width: 18, money: true, value: (r) => r.balance },
  { header: '来款日期', width: 12, value: (r) => r.valueDate },
  { header: '银行流水号', width: 24, value: (r) => r.serialNo },
  { header: '来源', width: 10, value: (r) => INCOME_SOURCE_LABELS[r.source] },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '备注', width: 30, value: (r) => r.remark },
];

/** 来款 导出: the list's rows, page after page of its own query. */
export function incomeExport(page: ListExport<IncomeRow>['page']): ListExport<IncomeRow> {
  return {
    fileName: INCOME_EXPORT_FILE_NAME,
    sheetName: '来款',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved',
  };
}
