import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Space } from 'antd';
import { EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import { Auth } from '../permission/Auth';
import { AuditView, type AuditDecideOptions } from './AuditView';
import { DocStateTag } from './DocStateTag';
import { RejectionNotice } from './RejectionNotice';
import { WithdrawButton } from './WithdrawButton';

/**
 * 编辑 on a document's view: offered while it is a draft or rejected (back with its maker, the
 * reason above: RejectionNotice) and the user may save it.
 */
export function DocEditButton(props: {
  editTo: string | undefined;
  state: DocState | undefined;
  menuCode: string;
}) {
  const navigate = useNavigate();
  const { editTo, state } = props;
  if (!editTo || !state || !EDITABLE_STATES.includes(state)) return null;
  return (
    <Auth code={`${props.menuCode}:save`}>
      <Button data-testid="doc-edit" onClick={() => void navigate(editTo)}>
        编辑
      </Button>
    </Auth>
  );
}

/**
 * The frame of a workflow document's view page: title with its state, 返回 to the list, and the
 * audit view (业务单据 / 审批记录 / 流程图 / 传阅 / 流程审批) around the document's own body.
 * The view is never stale (docs/architecture.md "A view is never stale"): the queries under
 * `refresh` are fetched again whenever it shows and after every action on it, done or refused. A
 * draft that came back to its maker (rejected, withdrawn) says why at the top and offers 编辑.
 */
export function DocViewFrame(props: {
  testId: string;
  title: string;
  state: DocState | undefined;
  tags?: ReactNode;
  /** In place of the state's tag (a document whose screen shows more states: 合同). */
  stateTags?: ReactNode;
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
  return (
    <Card
      data-testid={props.testId}
      title={
        <Space>
          <span>
            {props.title} {props.docCode}
          </span>
          {props.stateTags ?? (props.state ? <DocStateTag state={props.state} /> : null)}
          {props.tags}
        </Space>
      }
      extra={
        <Space>
          {props.actions}
          <DocEditButton editTo={props.editTo} state={props.state} menuCode={props.menuCode} />
          <WithdrawButton
            docType={props.docType}
            docCode={props.docCode}
            state={props.state}
            refresh={props.refresh}
          />
          <Button onClick={() => void navigate(props.backTo)}>返回</Button>
        </Space>
      }
    >
      {/* Why a draft came back to its maker, above everything (rejected or withdrawn). */}
      <RejectionNotice docType={props.docType} docCode={props.docCode} />
      <AuditView
        docType={props.docType}
        docCode={props.docCode}
        menuCode={props.menuCode}
        refresh={props.refresh}
        decide={{
          auditPath: props.auditPath,
          unAuditPath: props.unAuditPath,
          ...(props.auditActions ? { actions: props.auditActions } : {}),
        }}
      >
        {props.children}
      </AuditView>
    </Card>
  );
}
