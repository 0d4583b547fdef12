import { Typography } from 'antd';
import { AuditSidebar } from '../layout/audit-slot';
import type { DocRef } from './api';
import { ApprovalTimeline, AuditHeader, useProcess } from './AuditView';

/**
 * Audit sidebar of the website layout, filled by a document's view: the approval panel
 * (process name, state, times, then the approval records) of `docType` / `docCode`. Renders
 * nothing outside the website layout (no sidebar there to fill).
 */
export function DocAuditSidebar({ docType, docCode }: DocRef) {
  const view = useProcess({ docType, docCode });
  return (
    <AuditSidebar>
      <div className="audit-sidebar__panel" data-testid="doc-audit-sidebar" style={{ padding: 12 }}>
        <Typography.Title level={5}>审批信息</Typography.Title>
        <AuditHeader view={view.data} narrow />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          审批记录
        </Typography.Title>
        <ApprovalTimeline docType={docType} docCode={docCode} />
      </div>
    </AuditSidebar>
  );
}
