import {
  CONTRACT_EXPORT_FILE_NAME,
  CONTRACT_STATUS_LABELS,
  DOC_STATE_LABELS,
  LOAN_STATE_LABELS,
  type ContractListRow,
} from '@portal/contract/contract';
import { PRODUCT_LABELS } from '@portal/contract/credit';
import type { ExportColumn, ListExport } from '../../platform/http/export';

const COLUMNS: ExportColumn<ContractListRow>[] = [
  { header: '合同编号', width: 15, value: (r) => r.bizCode },
  { header: '合同号', width: 20, value: (r) => r.contractNo },
  { header: '客户名称', width: 32, value: (r) => r.custName },
  { header: '产品', width: 14, value: (r) => PRODUCT_LABELS[r.product] ?? r.product },
  { header: '融资金额', width: 18, money: true, value: (r) => r.financingAmount },
  { header: '在贷本金', width: 18, money: true, value: (r) => r.principalOutstanding },
  { header: '起始日', width: 12, value: (r) => r.startDate },
  { header: '到期日', width: 12, value: (r) => r.maturityDate },
  { header: '审核状态', width: 10, value: (r) => DOC_STATE_LABELS[r.state] },
  { header: '合同状态', width: 10, value: (r) => CONTRACT_STATUS_LABELS[r.status] },
  { header: '放款状态', width: 10, value: (r) => LOAN_STATE_LABELS[r.loanState] },
];

/** 合同信息 导出: the list's rows, page after page of its own query. */
export function contractExport(page: ListExport<ContractListRow>['page']): ListExport<ContractListRow> {
  return {
    fileName: CONTRACT_EXPORT_FILE_NAME,
    sheetName: '合同信息',
    columns: COLUMNS,
    unit: '笔',
    page,
    inForce: (r) => r.state === 'approved',
  };
}
