import { BAD_DEBT_EXPORT_FILE_NAME, BAD_DEBT_RED_LABELS, type BadDebtRow } from '@portal/contract/baddebt';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<BadDebtRow>[] = [
  { header: '核销坏账编号', width: 15, value: (r) => r.badDebtBizCode },
  { header: '合同号', width: 20, value: (r) => r.contractNo },
  { header: '客户名称', width: 30, value: (r) => r.custName },
  { header: '核销日期', width: 12, value: (r) => r.writeOffDate },
  { header: '本金', width: 18, money: true, value: (r) => r.principal },
  { header: '利息', width: 18, money: true, value: (r) => r.interest },
  { header: '费用', width: 18, money: true, value: (r) => r.fee },
  { header: '罚息', width: 18, money: true, value: (r) => r.penalty },
  { header: '核销金额', width: 18, money: true, value: (r) => r.amount },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '冲红状态', width: 10, value: (r) => BAD_DEBT_RED_LABELS[r.redState] },
];

/** 核销坏账 导出: the list's rows; the 合计 row counts the write-offs in force (approved, not reversed). */
export function badDebtExport(page: ListExport<BadDebtRow>['page']): ListExport<BadDebtRow> {
  return {
    fileName: BAD_DEBT_EXPORT_FILE_NAME,
    sheetName: '核销坏账',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved' && r.redState === 'none',
  };
}
