import { Alert } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import type { DocRef } from './api';
import { useProcess } from './AuditView';

/**
 * Why a rejected document came back (docs/architecture.md "Documents and approvals"): the
 * rejecting approver and their comment, shown above the document's editor while it is rejected.
 */
export function RejectionNotice(ref: DocRef) {
  const view = useProcess(ref);
  const rejection = view.data?.rejection;
  if (!rejection) return null;
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
}
