import { BUYBACK_EXPORT_FILE_NAME, BUYBACK_RED_LABELS, type BuybackRow } from '@portal/contract/buyback';
import { DOC_STATE_LABELS } from '@portal/contract/workflow';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<BuybackRow>[] = [
  { header: '回购单编号', width: 15, value: (r) => r.buybackBizCode },
  { header: '合同号', width: 20, value: (r) => r.contractNo },
  { header: '客户名称', width: 30, value: (r) => r.custName },
  { header: '回购日期', width: 12, value: (r) => r.buybackDate },
  { header: '本金', width: 18, money: true, value: (r) => r.principal },
  { header: '利息', width: 18, money: true, value: (r) => r.interest },
  { header: '费用', width: 18, money: true, value: (r) => r.fee },
  { header: '罚息', width: 18, money: true, value: (r) => r.penalty },
  { header: '回购金额', width: 18, money: true, value: (r) => r.amount },
  { header: '已收回购款', width: 18, money: true, value: (r) => r.settled },
  { header: '未收回购款', width: 18, money: true, value: (r) => r.open },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '冲红状态', width: 10, value: (r) => BUYBACK_RED_LABELS[r.redState] },
];

/** 回购单 导出: the list's rows; the 合计 row counts the buy-backs in force (approved, not reversed). */
export function buybackExport(page: ListExport<BuybackRow>['page']): ListExport<BuybackRow> {
  return {
    fileName: BUYBACK_EXPORT_FILE_NAME,
    sheetName: '回购单',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved' && r.redState === 'none',
  };
}
