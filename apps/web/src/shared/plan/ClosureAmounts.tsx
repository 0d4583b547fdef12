import { Descriptions, Table } from 'antd';
import { COMPONENT_LABELS, type PaidLineView } from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';

/**
 * What closes a contract's plan (回购单, 核销坏账): the amount part by part, its total, and the plan
 * lines it closes (period, due date, component, amount).
 */
export function ClosureAmounts({
  parts,
  total,
  lines,
}: {
  /** Label and amount of each part, in order. */
  parts: readonly (readonly [string, string])[];
  /** The total's label, amount and test id. */
  total: { label: string; amount: string; testId: string };
  lines: readonly PaidLineView[];
}) {
  return (
    <>
      <Descriptions size="small" bordered column={parts.length + 1} style={{ marginBottom: 12 }}>
        {parts.map(([label, amount]) => (
          <Descriptions.Item key={label} label={label}>
            {formatMoney(amount)}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={total.label}>
          <strong data-testid={total.testId}>{formatMoney(total.amount)}</strong>
        </Descriptions.Item>
      </Descriptions>
      <Table<PaidLineView>
        size="small"
        pagination={false}
        rowKey={(l) => `${l.itemId}/${l.component}`}
        dataSource={[...lines]}
        columns={[
          { title: '期次', dataIndex: 'period', width: 70 },
          { title: '还款日', dataIndex: 'dueDate', width: 120 },
          { title: '科目', key: 'component', render: (_: unknown, l) => COMPONENT_LABELS[l.component] },
          { title: '金额', key: 'amount', align: 'right', render: (_: unknown, l) => formatMoney(l.amount) },
        ]}
      />
    </>
  );
}
