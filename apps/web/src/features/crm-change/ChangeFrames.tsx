import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Select, Space, Spin, type TableColumnType } from 'antd';
import type { DocState } from '@portal/contract/workflow';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import type { UpdateOptions, UpdateResult } from '../../shared/request/http';
import { DocStateTag } from '../../shared/workflow/DocStateTag';
import { DocAuditSidebar } from '../../shared/workflow/DocAuditSidebar';
import { DocEditButton, DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { RejectionNotice } from '../../shared/workflow/RejectionNotice';
import { DOC_STATE_OPTIONS, docActionsColumn, docStateColumn } from '../../shared/workflow/doc-columns';
import { crmChangeKeys, type Saved } from './api';
import type { ChangeKind } from './kinds';

/** The columns every change list shows around its own ones. */
interface ChangeRowBase {
  bizCode: string;
  compName: string;
  state: DocState;
  createdByName: string | null;
  createdAt: string;
}

// ----- list --------------------------------------------------------------------------------------

/**
 * A change list: 企业名称 / 审核状态 filters, the add button (with the add permission), 变更单编号 and
 * 企业名称, the kind's own `columns`, 经办人, 创建时间, 状态 and 查看 / 编辑 / 删除.
 */
export function ChangeListFrame<T extends ChangeRowBase>(props: {
  kind: ChangeKind;
  testId: string;
  addLabel: string;
  addTo: string;
  columns: TableColumnType<T>[];
  viewTo: (r: T) => string;
  editTo: (r: T) => string;
  remove: (bizCode: string) => Promise<UpdateResult<unknown>>;
}) {
  const { kind, columns, viewTo, editTo, remove } = props;
  const navigate = useNavigate();
  const buttons = useButtons(kind.menuCode);
  return (
    <div data-testid={props.testId}>
      <ListPage<T>
        source={kind.listPath}
        rowKey="bizCode"
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="state" label="审核状态">
              <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
            </Form.Item>
          </>
        }
        toolbar={
          buttons.has('add') ? (
            <Button type="primary" onClick={() => void navigate(props.addTo)}>
              {props.addLabel}
            </Button>
          ) : null
        }
        columns={[
          codeColumn<T>('变更单编号', 'bizCode'),
          { title: '企业名称', dataIndex: 'compName', key: 'compName' },
          ...columns,
          { title: '经办人', dataIndex: 'createdByName', key: 'createdByName' },
          dateColumn<T>('创建时间', 'createdAt', { withTime: true }),
          docStateColumn<T>(),
          docActionsColumn<T>({
            buttons,
            view: (r) => void navigate(viewTo(r)),
            edit: (r) => void navigate(editTo(r)),
            remove: (r) => void remove(r.bizCode).catch(() => undefined),
          }),
        ]}
      />
    </div>
  );
}

// ----- editor (on the shared EditorFrame, shared/editor) ---------------------------------------

/**
 * Saving a change: asks first (此操作将保存…), refreshes the kind's list and queries, then hands the
 * saved code and version to `onSaved`. `saving` is true meanwhile.
 */
export function useChangeSave(kind: ChangeKind) {
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const run = async (
    submit: boolean,
    call: (opts: UpdateOptions) => Promise<UpdateResult<Saved>>,
    onSaved: (saved: Saved) => void,
  ) => {
    setSaving(true);
    try {
      const r = await call({
        confirm: `此操作将保存${kind.title}${submit ? '并提交审批' : ''}！ 是否继续？`,
      });
      if (!r.ok || !r.data) return;
      void qc.invalidateQueries({ queryKey: crmChangeKeys.list(kind.listPath) });
      void qc.invalidateQueries({ queryKey: kind.queryRoot });
      onSaved(r.data);
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };
  return { saving, run };
}

// ----- view --------------------------------------------------------------------------------------

/**
 * A change's view: with `audit`, the workflow DocViewFrame (审批记录, 流程图, 传阅, 流程审批); without,
 * the same title and 返回 around the body alone. Both fill the website layout's audit sidebar with
 * the change's approval panel (DocAuditSidebar).
 */
export function ChangeViewFrame(props: {
  kind: ChangeKind;
  testId: string;
  docCode: string;
  state: DocState | undefined;
  audit: boolean;
  /** The change's editor, offered (编辑) while it is a draft or rejected. */
  editTo: string;
  loading?: boolean;
  children: ReactNode;
}) {
  const { kind } = props;
  const navigate = useNavigate();
  // Every view of a change (website layout) fills the layout's audit sidebar with its approvals.
  const sidebar = props.docCode ? <DocAuditSidebar docType={kind.docType} docCode={props.docCode} /> : null;
  if (props.audit)
    return (
      <>
        {sidebar}
        <DocViewFrame
          testId={props.testId}
          title={kind.title}
          state={props.state}
          backTo={kind.listRoute}
          docType={kind.docType}
          docCode={props.docCode}
          menuCode={kind.menuCode}
          auditPath={kind.auditPath}
          unAuditPath={kind.unAuditPath}
          refresh={kind.queryRoot}
          editTo={props.editTo}
        >
          {props.children}
        </DocViewFrame>
      </>
    );
  return (
    <>
      {sidebar}
      <Card
        data-testid={props.testId}
        title={
          <Space>
            <span>
              {kind.title} {props.docCode}
            </span>
            {props.state ? <DocStateTag state={props.state} /> : null}
          </Space>
        }
        extra={
          <Space>
            <DocEditButton editTo={props.editTo} state={props.state} menuCode={kind.menuCode} />
            <Button onClick={() => void navigate(kind.listRoute)}>返回</Button>
          </Space>
        }
      >
        {/* Why a draft came back to its maker, above everything, as on the audit tab. */}
        {props.docCode ? <RejectionNotice docType={kind.docType} docCode={props.docCode} /> : null}
        <Spin spinning={!!props.loading}>{props.children}</Spin>
      </Card>
    </>
  );
}
