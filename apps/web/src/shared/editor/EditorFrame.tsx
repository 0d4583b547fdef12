import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Card, Form, Space } from 'antd';
import { normalizePath } from '../routing/route-table';
import { RejectionNotice } from '../workflow/RejectionNotice';
import { markDirty } from './unsaved';

/**
 * The frame of every editor page: title, actions and 返回, the rejection of a rejected document
 * (with `doc`), and the unsaved-input guard (docs/architecture.md "Editors keep their input"):
 * any change a user makes in a form inside marks the page dirty until a save succeeds, so that
 * closing its tab or reloading the window asks first.
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
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const path = normalizePath(useLocation().pathname);
  // No cleanup on unmount: a hidden tab's page (React's <Activity>) runs its effects' cleanups
  // too, and its input is still there. Closing the tab asks and then forgets it (confirmDiscard).
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
          <Button onClick={() => void navigate(props.backTo)}>返回</Button>
        </Space>
      }
    >
      {props.doc?.docCode ? <RejectionNotice {...props.doc} /> : null}
      <Form.Provider
        onFormChange={(_name, { changedFields }) => {
          // Validation alone (保存 of an untouched form) changes no field the user touched.
          if (changedFields.some((f) => f.touched)) markDirty(path);
        }}
      >
        {props.children}
      </Form.Provider>
    </Card>
  );
}
