import { Table, type TableColumnsType } from 'antd';
import type { OperLogChange } from '@portal/contract/monitor';

const COLUMNS: TableColumnsType<OperLogChange> = [
  { title: '字段', dataIndex: 'label', key: 'label', width: 140 },
  { title: '修改前', dataIndex: 'before', key: 'before', render: (v: string | null) => v ?? '—' },
  { title: '修改后', dataIndex: 'after', key: 'after', render: (v: string | null) => v ?? '—' },
];

/**
 * The fields of one audited write in words (the server's labels and values, files by name): 修改前
 * and 修改后 when the write recorded the values before it, else only what it wrote. Used by
 * 操作日志 and by a customer's 审核信息.
 */
export function AuditChangesTable({
  changes,
  hasBefore,
  loading,
}: {
  changes: readonly OperLogChange[];
  hasBefore: boolean;
  loading?: boolean;
}) {
  return (
    <Table<OperLogChange>
      size="small"
      rowKey="field"
      loading={loading}
      columns={hasBefore ? COLUMNS : COLUMNS.filter((c) => c.key !== 'before')}
      dataSource={[...changes]}
      pagination={false}
      locale={{ emptyText: '无字段变化' }}
    />
  );
}

/** A one-line summary of the changed fields: 「法定代表人、资料文件」. */
export function changedFieldsSummary(changes: readonly OperLogChange[]): string {
  return changes.map((c) => c.label).join('、');
}
