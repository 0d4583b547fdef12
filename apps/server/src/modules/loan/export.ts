import { LOAN_EXPORT_FILE_NAME, LOAN_RED_LABELS, type LoanRow } from '@portal/contract/loan';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<LoanRow>[] = [
  { header: '放款单编号', width: 15, value: (r) => r.loanBizCode },
  { header: '合同号', width: 20, value: (r) => r.contractNo },
  { header: '客户名称', width: 30, value: (r) => r.custName },
  { header: '放款日', width: 12, value: (r) => r.valueDate },
  { header: '融资金额', width: 18, money: true, value: (r) => r.financingAmount },
  { header: '扣收合计', width: 18, money: true, value: (r) => r.deductedAmount },
  { header: '退还多收前置利息', width: 18, money: true, value: (r) => r.returnedAmount },
  { header: '实付金额', width: 18, money: true, value: (r) => r.netAmount },
  { header: '银行流水号', width: 24, value: (r) => r.serialNo },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '冲红状态', width: 10, value: (r) => LOAN_RED_LABELS[r.redState] },
];

/**
 * 放款单 导出: the list's rows, page after page of its own query; the 合计 row counts the
 * disbursements in force only (approved, not reversed: docs/money-lifecycle.md "导出").
 */
export function loanExport(page: ListExport<LoanRow>['page']): ListExport<LoanRow> {
  return {
    fileName: LOAN_EXPORT_FILE_NAME,
    sheetName: '放款单',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved' && r.redState === 'none',
  };
}
