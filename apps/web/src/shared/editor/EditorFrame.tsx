import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Button, Card, Space, Spin } from 'antd';
import { EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import { normalizePath } from '../routing/route-table';
import { RejectionNotice } from '../workflow/RejectionNotice';
import { UnsavedInput } from './UnsavedInput';
import { leaveEditor } from './unsaved';

/**
 * The frame of every editor page: title, actions and 返回, the rejection of a rejected document
 * (with `doc`), and the unsaved-input guard (docs/architecture.md "Editors keep their input"):
 * any change a user makes in a form inside marks the page dirty until a save succeeds, so that
 * every way out that would lose it asks first: 返回 here, closing its tab, a reload, leaving a
 * website record (UnsavedInput, shared/editor/unsaved.ts, the layouts' kept pages).
 */
export function EditorFrame(props: {
  testId: string;
  title: ReactNode;
  /** Beside the title (state tags). */
  tags?: ReactNode;
  /** Buttons before 返回. */
  actions?: ReactNode;
  /** Where 返回 leads (the list). */
  backTo: string;
  /** The workflow document being edited, once it exists: its rejection is shown. */
  doc?: { docType: string; docCode: string } | undefined;
  /** The record is loading: the body waits under a spinner. */
  loading?: boolean;
  /**
   * The document's state, with `viewTo` its view: a document no longer editable (pending, approved)
   * is not shown with fields; its editor URL goes to the view.
   */
  state?: DocState | undefined;
  viewTo?: string | undefined;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const path = normalizePath(useLocation().pathname);
  if (props.state && !EDITABLE_STATES.includes(props.state) && props.viewTo)
    return <Navigate to={props.viewTo} replace />;
  const body = (
    <>
      {props.doc?.docCode ? <RejectionNotice {...props.doc} /> : null}
      <UnsavedInput>{props.children}</UnsavedInput>
    </>
  );
  return (
    <Card
      data-testid={props.testId}
      title={
        <Space>
          <span>{props.title}</span>
          {props.tags}
        </Space>
      }
      extra={
        <Space>
          {props.actions}
          <Button onClick={() => void leaveEditor(path, () => void navigate(props.backTo))}>返回</Button>
        </Space>
      }
    >
      {props.loading === undefined ? body : <Spin spinning={props.loading}>{body}</Spin>}
    </Card>
  );
}
