import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Space } from 'antd';
import { EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import { Auth } from '../permission/Auth';
import { AuditView, type AuditDecideOptions } from './AuditView';
import { DocStateTag } from './DocStateTag';
import { WithdrawButton } from './WithdrawButton';

/**
 * The frame of a workflow document's view page: title with its state, 返回 to the list, and the
 * audit view (业务单据 / 审批记录 / 流程图 / 传阅 / 流程审批) around the document's own body.
 * A decision refreshes the queries under `refresh`.
 */
export function DocViewFrame(props: {
  testId: string;
  title: string;
  state: DocState | undefined;
  tags?: ReactNode;
  /** Buttons beside 返回 (打印 …). */
  actions?: ReactNode;
  backTo: string;
  /** The document's editor, offered (编辑) while it is a draft or rejected and the user may save. */
  editTo?: string | undefined;
  docType: string;
  docCode: string;
  menuCode: string;
  auditPath: string;
  unAuditPath: string;
  auditActions?: AuditDecideOptions['actions'];
  refresh: readonly unknown[];
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return (
    <Card
      data-testid={props.testId}
      title={
        <Space>
          <span>
            {props.title} {props.docCode}
          </span>
          {props.state ? <DocStateTag state={props.state} /> : null}
          {props.tags}
        </Space>
      }
      extra={
        <Space>
          {props.actions}
          {props.editTo && props.state && EDITABLE_STATES.includes(props.state) ? (
            <Auth code={`${props.menuCode}:save`}>
              <Button data-testid="doc-edit" onClick={() => void navigate(props.editTo!)}>
                编辑
              </Button>
            </Auth>
          ) : null}
          <WithdrawButton docType={props.docType} docCode={props.docCode} refresh={props.refresh} />
          <Button onClick={() => void navigate(props.backTo)}>返回</Button>
        </Space>
      }
    >
      <AuditView
        docType={props.docType}
        docCode={props.docCode}
        menuCode={props.menuCode}
        decide={{
          auditPath: props.auditPath,
          unAuditPath: props.unAuditPath,
          ...(props.auditActions ? { actions: props.auditActions } : {}),
          onDone: () => void qc.invalidateQueries({ queryKey: props.refresh }),
        }}
      >
        {props.children}
      </AuditView>
    </Card>
  );
}
