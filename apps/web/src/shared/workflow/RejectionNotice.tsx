import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import { workflowQueries, type DocRef } from './api';
import { useProcess } from './AuditView';

/**
 * Why a document came back to its maker (docs/architecture.md "Documents and approvals"), shown
 * at the top of its editor and its view: while it is rejected, the rejecting approver and their
 * comment; while it is a draft again after 撤回, who took it back and when.
 */
export function RejectionNotice(ref: DocRef) {
  const view = useProcess(ref);
  const rejection = view.data?.rejection;
  const withdrawn = !rejection && view.data?.status === 'withdrawn' && view.data.docState === 'draft';
  const records = useQuery(workflowQueries.records(ref, withdrawn));
  if (rejection)
    return (
      <Alert
        data-testid="rejection-notice"
        type="error"
        showIcon
        style={{ marginBottom: 16 }}
        message={`单据已被驳回（${rejection.actorName}，${formatDateTime(rejection.at)}）`}
        description={`驳回原因：${rejection.comment?.trim() || '（未填写）'}`}
      />
    );
  if (!withdrawn) return null;
  const taken = (records.data ?? []).findLast((r) => r.action === 'withdraw');
  return (
    <Alert
      data-testid="withdrawal-notice"
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={taken ? `单据已撤回（${taken.actorName}，${formatDateTime(taken.at)}）` : '单据已撤回'}
      description="撤回后单据为草稿，可编辑后再提交审批。"
    />
  );
}
