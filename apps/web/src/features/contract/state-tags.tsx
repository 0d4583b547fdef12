import { Space, Tag } from 'antd';
import {
  CONTRACT_STATUS_LABELS,
  LOAN_STATE_LABELS,
  type ContractStatus,
  type DocState,
  type LoanState,
} from '@portal/contract/contract';
import { DocStateTag } from '../../shared/workflow/DocStateTag';

// Apart from components.tsx (plan, receivables and payer tables, descriptions) so that the
// contract list loads only what its rows show (bench/README.md).

export const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

const STATUS_COLORS: Record<ContractStatus, string> = {
  none: 'default',
  effective: 'processing',
  settled: 'success',
  writtenOff: 'error',
};

export function ContractStateTags({
  row,
}: {
  row: { state: DocState; status: ContractStatus; loanState: LoanState };
}) {
  return (
    <Space size={4} wrap>
      <DocStateTag state={row.state} />
      {row.status !== 'none' ? (
        <Tag color={STATUS_COLORS[row.status]}>{CONTRACT_STATUS_LABELS[row.status]}</Tag>
      ) : null}
      {row.loanState === 'loaned' ? <Tag color="cyan">{LOAN_STATE_LABELS.loaned}</Tag> : null}
    </Space>
  );
}
