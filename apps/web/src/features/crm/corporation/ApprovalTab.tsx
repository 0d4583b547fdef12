import type { TableColumnsType } from 'antd';
import { CRM_PATHS, type ApprovalRow } from '@portal/contract/crm';
import { ListPage } from '../../../shared/list/ListPage';
import { dateColumn } from '../../../shared/list/columns';
import type { ScreenProps } from '../../../shared/ui/screen';
import { useCompCode } from '../api';
import { TabFrame, useCustomerFetcher } from './tab-kit';

/**
 * 审核信息 (view only): the customer's recorded history. Workflow instances carry no customer, so
 * the tab lists the audit log of the customer and its sub-pages (see the server's customerHistory).
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
      dataIndex: 'detail',
      key: 'detail',
      ellipsis: true,
      render: (d: unknown) => {
        if (d && typeof d === 'object' && 'comment' in d)
          return String((d as { comment: unknown }).comment ?? '');
        return d ? JSON.stringify(d).slice(0, 120) : '';
      },
    },
  ];
  return (
    <TabFrame title="审核信息" compCode={compCode} testId="crm-tab-approval">
      <ListPage<ApprovalRow>
        source={fetcher}
        queryKey={['crm', 'history', compCode]}
        rowKey="id"
        columns={columns}
        tableProps={{ size: 'small' }}
      />
    </TabFrame>
  );
}
