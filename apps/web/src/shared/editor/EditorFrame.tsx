import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Button, Card, Space } from 'antd';
import { EDITABLE_STATES, type DocState } from '@portal/contract/workflow';
import { normalizePath } from '../routing/route-table';
import { RejectionNotice } from '../workflow/RejectionNotice';
import { InputGate, usePageWaiting } from './fill-gate';
import { UnsavedInput } from './UnsavedInput';
import { leaveEditor } from './unsaved';

/**
 * The frame of every editor page: title, actions and 返回, the rejection of a rejected document
 * (with `doc`), and the unsaved-input guard (docs/architecture.md "Editors keep their input"):
 * any change a user makes in a form inside marks the page dirty until a save succeeds, so that
 * every way out that would lose it asks first: 返回 here, closing its tab, a reload, leaving a
 * website record (UnsavedInput, shared/editor/unsaved.ts, the layouts' kept pages).
 *
 * Its inputs take nothing before the record they show is there: while a fill of the page
 * (`useFormFill`) waits for its record, or while `loading`, the body is under a spinner with every
 * input disabled, and the actions are disabled too (返回 stays). A page declares nothing for that:
 * its fills do (fill-gate.tsx).
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
  /**
   * A record the page shows arrives some other way than through `useFormFill` (a draft store):
   * while it loads the body waits under a spinner and takes no input, as while a fill waits.
   */
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
  const waiting = usePageWaiting(path) || !!props.loading;
  if (props.state && !EDITABLE_STATES.includes(props.state) && props.viewTo)
    return <Navigate to={props.viewTo} replace />;
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
          {props.actions ? (
            <InputGate closed={waiting}>
              <Space>{props.actions}</Space>
            </InputGate>
          ) : null}
          <Button onClick={() => void leaveEditor(path, () => void navigate(props.backTo))}>返回</Button>
        </Space>
      }
    >
      {props.doc?.docCode ? <RejectionNotice {...props.doc} /> : null}
      <UnsavedInput loading={props.loading}>{props.children}</UnsavedInput>
    </Card>
  );
}
