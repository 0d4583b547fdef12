import {
  CREDIT_EXPORT_FILE_NAME,
  CYCLE_LABELS,
  LINE_KIND_LABELS,
  MOVEMENT_LABELS,
  PRODUCT_LABELS,
  creditHistoryFileName,
  type CreditListRow,
  type HistoryRow,
} from '@portal/contract/credit';
import { formatDateTime } from '@portal/contract/format';
import { DOC_STATE_LABELS, DOC_TYPES } from '@portal/contract/workflow';
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
  return {
    fileName: CREDIT_EXPORT_FILE_NAME,
    sheetName: '授信',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved',
  };
}

const docLabel = (docType: string) =>
  (DOC_TYPES as Record<string, { label: string } | undefined>)[docType]?.label ?? docType;

const HISTORY_COLUMNS: ExportColumn<HistoryRow>[] = [
  { header: '额度编号', width: 15, value: (r) => r.lineCode },
  { header: '额度类别', width: 12, value: (r) => LINE_KIND_LABELS[r.lineKind] },
  { header: '变动', width: 10, value: (r) => MOVEMENT_LABELS[r.movement] },
  { header: '金额', width: 18, money: true, noTotal: true, value: (r) => r.amount },
  { header: '变动后额度', width: 18, money: true, noTotal: true, value: (r) => r.limitAfter },
  { header: '变动后占用', width: 18, money: true, noTotal: true, value: (r) => r.occupiedAfter },
  { header: '变动后预占', width: 18, money: true, noTotal: true, value: (r) => r.reservedAfter },
  { header: '单据类型', width: 12, value: (r) => docLabel(r.docType) },
  { header: '单据编号', width: 15, value: (r) => r.docCode },
  { header: '原因', width: 24, value: (r) => r.reason },
  { header: '业务日期', width: 12, value: (r) => r.bizDate },
  { header: '操作人', width: 12, value: (r) => r.actorName },
  { header: '时间', width: 20, value: (r) => formatDateTime(r.at) },
];

/**
 * 授信历史 导出: one credit's occupation ledger, oldest first as its view shows it. A credit's
 * ledger is read whole (one batch); its 合计 row counts the movements (amounts of both signs and
 * balances do not add up).
 */
export function creditHistoryExport(bizCode: string, rows: readonly HistoryRow[]): ListExport<HistoryRow> {
  return {
    fileName: creditHistoryFileName(bizCode),
    sheetName: '授信历史',
    columns: HISTORY_COLUMNS,
    unit: '笔',
    page: async (pageNum) => (pageNum === 1 ? rows : []),
  };
}
