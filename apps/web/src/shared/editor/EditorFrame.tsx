import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Space } from 'antd';
import { RejectionNotice } from '../workflow/RejectionNotice';
import { UnsavedInput } from './UnsavedInput';

/**
 * The frame of every editor page: title, actions and 返回, the rejection of a rejected document
 * (with `doc`), and the unsaved-input guard (docs/architecture.md "Editors keep their input"):
 * any change a user makes in a form inside marks the page dirty until a save succeeds, so that
 * closing its tab or reloading the window asks first (UnsavedInput).
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
      <UnsavedInput>{props.children}</UnsavedInput>
    </Card>
  );
}
