import type { TableColumnsType } from 'antd';
import { CRM_PATHS, type ApprovalRow } from '@portal/contract/crm';
import { AuditChangesTable, changedFieldsSummary } from '../../../shared/audit/AuditChangesTable';
import { ListPage } from '../../../shared/list/ListPage';
import { dateColumn } from '../../../shared/list/columns';
import type { ScreenProps } from '../../../shared/ui/screen';
import { crmKeys, useCompCode } from '../api';
import { TabFrame, useCustomerFetcher } from './tab-kit';

/**
 * 审核信息 (view only): the customer's recorded history. Workflow instances carry no customer, so
 * the tab lists the audit log of the customer and its sub-pages (see the server's customerHistory).
 * A row names the fields it changed and opens into their values before and after, in words (the
 * same table as 操作日志); files show by name.
 */
export function ApprovalTab(_props: ScreenProps) {
  const compCode = useCompCode();
  const fetcher = useCustomerFetcher<ApprovalRow>(CRM_PATHS.approvalList, compCode);
  const columns: TableColumnsType<ApprovalRow> = [
    dateColumn('时间', 'at', { withTime: true, width: 170 }),
    { title: '操作人', dataIndex: 'actorName', key: 'actorName', width: 110 },
    { title: '内容', dataIndex: 'entityLabel', key: 'entityLabel', width: 150 },
    { title: '操作', dataIndex: 'actionLabel', key: 'actionLabel', width: 100 },
    {
      title: '说明',
      key: 'summary',
      ellipsis: true,
      render: (_: unknown, r: ApprovalRow) => r.comment ?? changedFieldsSummary(r.changes),
    },
  ];
  return (
    <TabFrame title="审核信息" compCode={compCode} testId="crm-tab-approval">
      <ListPage<ApprovalRow>
        source={fetcher}
        queryKey={crmKeys.part('history', compCode)}
        rowKey="id"
        columns={columns}
        tableProps={{
          size: 'small',
          expandable: {
            rowExpandable: (r) => r.changes.length > 0,
            expandedRowRender: (r) => <AuditChangesTable changes={r.changes} hasBefore={r.hasBefore} />,
          },
        }}
      />
    </TabFrame>
  );
}
