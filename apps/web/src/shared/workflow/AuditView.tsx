import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Timeline,
} from 'antd';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import {
  PROC_STATE_LABELS,
  RECORD_ACTION_LABELS,
  type ApprovalRecord,
  type CirculationItem,
  type ProcessView,
  type RecordAction,
  circulateSchema,
} from '@portal/contract/workflow';
import { zodRule } from '../form/zod-rule';
import { Auth } from '../permission/Auth';
import { DOC_STATE_COLORS, DocStateTag } from './DocStateTag';
import { refreshAfterAction, workflowApi, workflowKeys, workflowQueries, type DocRef } from './api';
import { FlowChart } from './FlowChart';
import { validValues } from '../ui/valid-values';
import { usePageFormName } from '../form/form-name';

/**
 * The audit views, one set for every document screen.
 *
 * Usage — a document's view page (read-only audit view):
 *
 *   <AuditView docType="contract" docCode={bizCode} menuCode="ft-contract-info">
 *     <ContractReadOnly bizCode={bizCode} />          // the 业务单据 tab
 *   </AuditView>
 *
 * …and its audit editor (adds the 流程审批 tab: approve / reject with a comment):
 *
 *   <AuditView
 *     docType="contract" docCode={bizCode} menuCode="ft-contract-info"
 *     decide={{
 *       auditPath: CONTRACT_PATHS.audit, unAuditPath: CONTRACT_PATHS.unAudit,
 *       // credit documents: actions: { audit: 'pass', unAudit: 'reject' }
 *       onDone: () => qc.invalidateQueries({ queryKey: contractKeys.all }),
 *     }}
 *   >
 *     <ContractReadOnly bizCode={bizCode} />
 *   </AuditView>
 *
 * `decide={true}` takes the approve / reject calls the document's module registered with
 * auditRoutes (the server sends them in the process view), as 流程监控 does.
 *
 * In the website layout, wrap it in `<AuditSidebar>` (shared/layout/audit-slot) to place it in
 * the audit sidebar; in the management layout put it in the page. Tabs: bill 业务单据 (default),
 * records 审批记录, flow 流程图, circulate 传阅, approve 流程审批 (editor only).
 */

export type AuditTab = 'bill' | 'records' | 'flow' | 'circulate' | 'approve';

export interface AuditDecideOptions {
  /** The document's own approve / reject calls (paths without /api), called with `?bizCode=docCode`. */
  auditPath: string;
  unAuditPath: string;
  /** Button actions that guard them: default audit / unAudit (credit documents: pass / reject). */
  actions?: { audit: 'audit' | 'pass'; unAudit: 'unAudit' | 'reject' };
  /** After a decision went through (refresh the document). */
  onDone?: (state: string) => void;
}

export interface AuditViewProps extends DocRef {
  /** The document screen's menu code (its :audit/:unAudit/:circulate buttons); default: the server's. */
  menuCode?: string;
  /** The 业务单据 tab: the document, read-only. */
  children: ReactNode;
  /**
   * Present: the audit editor (adds 流程审批). `true` takes the document's approve / reject calls
   * from the server (those its module registered with auditRoutes).
   */
  decide?: AuditDecideOptions | true;
  /** Default 'bill'. */
  defaultTab?: AuditTab;
  /** One column for the header (the website layout's 320 px audit sidebar). */
  narrow?: boolean;
  /**
   * The document's own queries (key prefix): fetched again, with its workflow, whenever the view
   * shows (opened, or its kept tab shown again) and after every decision, done or refused.
   */
  refresh?: readonly unknown[];
  /** Controlled tab, optional. */
  activeTab?: AuditTab;
  onTabChange?: (tab: AuditTab) => void;
}

export function useProcess(ref: DocRef) {
  return useQuery(workflowQueries.process(ref));
}

/** Header: process name, status, start, end, duration in days, subject. */
export function AuditHeader({ view, narrow = false }: { view: ProcessView | undefined; narrow?: boolean }) {
  if (!view) return null;
  const dash = '—';
  return (
    <Descriptions
      size="small"
      column={narrow ? 1 : { xs: 1, sm: 2, lg: 3 }}
      bordered
      data-testid="audit-header"
      items={[
        { key: 'procName', label: '流程名称', children: view.procName ?? '未提交' },
        {
          key: 'status',
          label: '状态',
          children: view.status ? (
            <Tag
              color={view.status === 'withdrawn' ? 'default' : DOC_STATE_COLORS[view.status]}
              data-testid="audit-status"
            >
              {PROC_STATE_LABELS[view.status]}
            </Tag>
          ) : (
            <DocStateTag state={view.docState} />
          ),
        },
        {
          key: 'startTime',
          label: '开始时间',
          children: view.startTime ? formatDateTime(view.startTime) : dash,
        },
        { key: 'endTime', label: '结束时间', children: view.endTime ? formatDateTime(view.endTime) : dash },
        { key: 'useTime', label: '耗时', children: view.useTime === null ? dash : `${view.useTime} 天` },
        { key: 'notic', label: '摘要', children: view.notic ?? dash },
      ]}
    />
  );
}

const ACTION_COLORS: Record<RecordAction, string> = {
  submit: 'blue',
  approve: 'green',
  reject: 'red',
  revoke: 'orange',
  withdraw: 'gray',
};

/** 审批记录: every round's records as a timeline, oldest first. */
export function ApprovalTimeline({ docType, docCode }: DocRef) {
  const ref = { docType, docCode };
  const records = useQuery(workflowQueries.records(ref));
  if (records.isLoading) return <Spin />;
  const list: ApprovalRecord[] = records.data ?? [];
  if (list.length === 0) return <Empty description="暂无审批记录" />;
  return (
    <Timeline
      data-testid="approval-timeline"
      items={list.map((r) => ({
        key: r.id,
        color: ACTION_COLORS[r.action],
        content: (
          <div className="wf-record" data-testid="approval-record">
            <Space wrap>
              <strong>{r.step === 0 ? '提交' : `第${r.step}步 ${r.stepName}`}</strong>
              <Tag color={ACTION_COLORS[r.action]}>{RECORD_ACTION_LABELS[r.action]}</Tag>
              <span>{r.actorName}</span>
              <span style={{ color: '#999' }}>{formatDateTime(r.at)}</span>
              {r.round > 1 ? <Tag>第{r.round}次提交</Tag> : null}
            </Space>
            {r.comment ? <div className="wf-record__comment">意见：{r.comment}</div> : null}
          </div>
        ),
      }))}
    />
  );
}

/** 传阅: who the document went to (read or not), and the send dialog. */
export function CirculationPanel({ docType, docCode, menuCode }: DocRef & { menuCode: string }) {
  const ref = { docType, docCode };
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ userIds: number[]; message?: string }>();
  const formName = usePageFormName('circulate');
  const list = useQuery(workflowQueries.circulation(ref));
  const users = useQuery(workflowQueries.users(open));
  const markRead = async (id: number) => {
    await workflowApi.markRead(id).catch(() => undefined);
    await qc.invalidateQueries({ queryKey: workflowKeys.all });
  };
  const send = async () => {
    const values = await validValues(form);
    if (!values) return; // the form shows what is wrong
    const res = await workflowApi.circulate(ref, values.userIds, values.message).catch(() => undefined);
    // Done or refused, the list shows who has it now (docs/architecture.md "A view is never stale").
    await qc.invalidateQueries({ queryKey: workflowKeys.circulation(ref) });
    if (res?.ok) {
      setOpen(false);
      form.resetFields();
    }
  };
  return (
    <div data-testid="circulation-panel">
      <Auth code={`${menuCode}:circulate`}>
        <Button type="primary" onClick={() => setOpen(true)} style={{ marginBottom: 12 }}>
          传阅
        </Button>
      </Auth>
      <Table<CirculationItem>
        rowKey="id"
        size="small"
        pagination={false}
        loading={list.isLoading}
        dataSource={list.data ?? []}
        locale={{ emptyText: '暂无传阅' }}
        columns={[
          { title: '传阅人', dataIndex: 'toName' },
          { title: '发送人', dataIndex: 'fromName' },
          { title: '说明', dataIndex: 'message', render: (v: string | null) => v ?? '' },
          { title: '发送时间', dataIndex: 'sentAt', render: (v: string) => formatDateTime(v) },
          {
            title: '状态',
            dataIndex: 'readAt',
            render: (v: string | null, r) =>
              v ? (
                <Tag color="success">已阅 {formatDateTime(v)}</Tag>
              ) : (
                <Space>
                  <Tag>未阅</Tag>
                  {r.mine ? (
                    <Button size="small" onClick={() => void markRead(r.id)} data-testid="mark-read">
                      标记已阅
                    </Button>
                  ) : null}
                </Space>
              ),
          },
        ]}
      />
      <Modal
        title="传阅"
        open={open}
        onOk={() => void send()}
        onCancel={() => setOpen(false)}
        okText="发送"
        destroyOnHidden
      >
        <Form form={form} name={formName} layout="vertical">
          <Form.Item name="userIds" label="传阅人" rules={[zodRule(circulateSchema.shape.userIds)]}>
            <Select
              mode="multiple"
              data-testid="circulate-users"
              loading={users.isLoading}
              placeholder="选择同事"
              optionFilterProp="label"
              options={(users.data ?? []).map((u) => ({
                value: u.id,
                label: `${u.realName}${u.deptName ? `（${u.deptName}）` : ''}`,
              }))}
            />
          </Form.Item>
          <Form.Item name="message" label="传阅说明" rules={[zodRule(circulateSchema.shape.message)]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}

/** 流程审批: approve or reject the current step with a comment (a rejection needs one). */
export function DecisionPanel({
  docType,
  docCode,
  menuCode,
  decide,
  refresh,
}: DocRef & { menuCode: string; decide: AuditDecideOptions; refresh?: readonly unknown[] | undefined }) {
  const ref = { docType, docCode };
  const qc = useQueryClient();
  const view = useProcess(ref);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const actions = decide.actions ?? { audit: 'audit', unAudit: 'unAudit' };
  const v = view.data;
  if (view.isLoading) return <Spin />;
  if (!v || v.status !== 'pending' || v.currentStep === null)
    return (
      <Empty description={v?.status ? `流程${PROC_STATE_LABELS[v.status]}，无需审批` : '单据尚未提交审批'} />
    );
  const step = v.steps[v.currentStep - 1];
  const go = async (kind: 'audit' | 'unAudit') => {
    if (kind === 'unAudit' && !comment.trim()) {
      setError('请填写驳回意见');
      return;
    }
    setError(null);
    const path = kind === 'audit' ? decide.auditPath : decide.unAuditPath;
    const verb = kind === 'audit' ? '通过' : '驳回';
    const res = await workflowApi
      .decide(
        path,
        docCode,
        { comment: comment.trim() || undefined, step: v.currentStep ?? undefined },
        `确定${verb}该单据吗？`,
      )
      .catch(() => undefined);
    // Done or refused (another approver was first), the view shows the document as it is now: its
    // process, to-dos, counts, 流程监控 lists and its own queries.
    await refreshAfterAction(qc, refresh);
    if (res?.ok) {
      setComment('');
      decide.onDone?.(res.data?.state ?? '');
    }
  };
  return (
    <div data-testid="decision-panel">
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'step',
            label: '当前步骤',
            children: step ? `第${step.no}步 ${step.name}（${step.roleName}）` : '',
          },
          { key: 'submitter', label: '提交人', children: v.submitterName },
          { key: 'amount', label: '金额', children: v.amount ? formatMoney(v.amount) : '—' },
        ]}
      />
      {!v.canApprove && v.cannotReason ? (
        <Alert
          type="info"
          showIcon
          message={v.cannotReason}
          style={{ marginBottom: 12 }}
          data-testid="cannot-reason"
        />
      ) : null}
      {/* Who may not decide this step gets no comment box and no buttons to press. */}
      {v.canApprove ? (
        <>
          <Form layout="vertical">
            <Form.Item label="审批意见" validateStatus={error ? 'error' : ''} help={error ?? undefined}>
              <Input.TextArea
                rows={4}
                maxLength={500}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                placeholder="通过时可不填；驳回时请填写原因"
                data-testid="decision-comment"
              />
            </Form.Item>
          </Form>
          <Space>
            <Auth code={`${menuCode}:${actions.audit}`}>
              <Button type="primary" onClick={() => void go('audit')} data-testid="decision-approve">
                通过
              </Button>
            </Auth>
            <Auth code={`${menuCode}:${actions.unAudit}`}>
              <Button danger onClick={() => void go('unAudit')} data-testid="decision-reject">
                驳回
              </Button>
            </Auth>
          </Space>
        </>
      ) : null}
    </div>
  );
}

/**
 * A view shows the document as it is now (docs/architecture.md "A view is never stale"): each time
 * it shows (mounted, or its kept tab shown again: React's `<Activity>` runs effects again), the
 * document's workflow and its own queries are fetched again, even when they are still fresh, since
 * what happened meanwhile (a resubmission from the editor, another user's decision) did not
 * necessarily go through this view's queries. A fetch already under way is not started twice.
 */
function useFreshOnShow(ref: DocRef, refresh: readonly unknown[] | undefined) {
  const qc = useQueryClient();
  const { docType, docCode } = ref;
  useEffect(() => {
    if (!docCode) return;
    const again = { cancelRefetch: false };
    void qc.invalidateQueries({ queryKey: workflowKeys.doc({ docType, docCode }) }, again);
    if (refresh) void qc.invalidateQueries({ queryKey: refresh }, again);
    // Keyed by the document: `refresh` is a literal a caller rebuilds every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [qc, docType, docCode]);
}

/** The whole audit view: header + tabs (see the usage at the top of this file). */
export function AuditView(props: AuditViewProps) {
  const { docType, docCode, decide, children } = props;
  const ref = { docType, docCode };
  const view = useProcess(ref);
  useFreshOnShow(ref, props.refresh);
  const menuCode = props.menuCode ?? view.data?.menuCode ?? docType;
  const [tab, setTab] = useState<AuditTab>(props.defaultTab ?? 'bill');
  const active = props.activeTab ?? tab;
  const change = (key: string) => {
    setTab(key as AuditTab);
    props.onTabChange?.(key as AuditTab);
  };
  const server = view.data?.decide;
  const decideOpts: AuditDecideOptions | undefined =
    decide === true
      ? server
        ? {
            auditPath: server.auditPath,
            unAuditPath: server.unAuditPath,
            actions: {
              audit: server.auditAction === 'pass' ? 'pass' : 'audit',
              unAudit: server.unAuditAction === 'reject' ? 'reject' : 'unAudit',
            },
          }
        : undefined
      : decide;
  const items = [
    { key: 'bill', label: '业务单据', children },
    { key: 'records', label: '审批记录', children: <ApprovalTimeline {...ref} /> },
    {
      key: 'flow',
      label: '流程图',
      children: view.data ? <FlowChart view={view.data} /> : <Spin />,
    },
    { key: 'circulate', label: '传阅', children: <CirculationPanel {...ref} menuCode={menuCode} /> },
    ...(decideOpts
      ? [
          {
            key: 'approve',
            label: '流程审批',
            children: (
              <DecisionPanel {...ref} menuCode={menuCode} decide={decideOpts} refresh={props.refresh} />
            ),
          },
        ]
      : []),
  ];
  return (
    <div className="wf-audit-view" data-testid="audit-view">
      <AuditHeader view={view.data} narrow={props.narrow ?? false} />
      <Tabs activeKey={active} onChange={change} items={items} destroyOnHidden={false} />
    </div>
  );
}
