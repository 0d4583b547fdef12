import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Form,
  Input,
  Modal,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { formatDateTime } from '@portal/contract/format';
import {
  progressText,
  CRON_LABEL,
  JOB_MENU,
  JOB_PATHS,
  type JobResult,
  type JobRunView,
  type JobView,
} from '@portal/contract/jobs';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { jobKeys, jobQueries } from './api';

const RESULT_COLORS: Record<JobResult, string> = { running: 'processing', ok: 'success', failed: 'error' };
const RUNS_PAGE = 10;
/** How often the list is read again while a run is going. */
const RUNNING_POLL_MS = 2000;

/** 1.2 秒 / 3 分 5 秒: how long a run took. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} 秒`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} 分 ${s % 60} 秒`;
}

/**
 * What a run did, why it failed, or (运行中) how far it is as its server last wrote it: the phase and
 * the contracts done (docs/business-date.md "Progress").
 */
export function runDetail(r: JobRunView): string {
  if (r.result === 'running') return r.progress ? progressText(r.progress) : '';
  return r.error ?? r.detail ?? '';
}

function ResultTag({ run }: { run: JobRunView | null }) {
  if (!run) return <>—</>;
  const tag = <Tag color={RESULT_COLORS[run.result]}>{run.resultLabel}</Tag>;
  return run.error ? <Tooltip title={run.error}>{tag}</Tooltip> : tag;
}

/** A job's runs, newest first, a page at a time. */
function RunHistory({ job }: { job: JobView }) {
  const [pageNum, setPageNum] = useState(1);
  const runs = useQuery(jobQueries.runs(job.code, pageNum, RUNS_PAGE));
  const columns: TableColumnsType<JobRunView> = [
    { title: '开始时间', key: 'startedAt', width: 170, render: (_, r) => formatDateTime(r.startedAt) },
    { title: '触发', dataIndex: 'triggerLabel', key: 'trigger', width: 90 },
    { title: '耗时', key: 'duration', width: 100, render: (_, r) => formatDuration(r.durationMs) },
    { title: '结果', key: 'result', width: 80, render: (_, r) => <ResultTag run={r} /> },
    { title: '说明', key: 'detail', render: (_, r) => runDetail(r) },
    { title: '执行人', key: 'by', width: 100, render: (_, r) => r.startedByName ?? '系统' },
    { title: '服务器', dataIndex: 'server', key: 'server', width: 160, ellipsis: true },
  ];
  return (
    <Table<JobRunView>
      size="small"
      rowKey="id"
      data-testid="job-runs"
      loading={runs.isLoading}
      columns={columns}
      dataSource={runs.data?.list ?? []}
      pagination={{
        current: pageNum,
        pageSize: RUNS_PAGE,
        total: runs.data?.total ?? 0,
        onChange: setPageNum,
      }}
    />
  );
}

/**
 * 定时任务 (docs/operations.md "Scheduled jobs"): each job's schedule, last run, duration, result and
 * next run; its history; 立即执行, 修改 (the cron expression) and 暂停/恢复 for holders of their codes.
 */
export default function JobsPage() {
  const qc = useQueryClient();
  const buttons = useButtons(JOB_MENU);
  // 立即执行 waits for the run's end: meanwhile, and while any job is 运行中, the list is polled so
  // that its progress moves on the screen.
  const [waiting, setWaiting] = useState(0);
  const jobs = useQuery({
    ...jobQueries.list(),
    refetchInterval: (q) =>
      waiting > 0 || q.state.data?.some((j) => j.lastRun?.result === 'running') ? RUNNING_POLL_MS : false,
  });
  const [editing, setEditing] = useState<JobView | null>(null);
  const [viewing, setViewing] = useState<JobView | null>(null);
  const [form] = Form.useForm<{ cron: string }>();
  const refresh = () => void qc.invalidateQueries({ queryKey: jobKeys.all });

  const act = async (path: string, body: unknown, confirm: string) => {
    const r = await update(path, body, { confirm }).catch(() => null);
    if (r?.confirmed) refresh();
    return r;
  };
  const runNow = (j: JobView) => {
    setWaiting((n) => n + 1);
    void act(JOB_PATHS.run, { code: j.code }, `确定要立即执行任务「${j.label}」吗？`).finally(() =>
      setWaiting((n) => n - 1),
    );
  };
  const togglePause = (j: JobView) =>
    void act(
      JOB_PATHS.setPaused,
      { code: j.code, paused: !j.paused },
      j.paused
        ? `确定要恢复任务「${j.label}」吗？`
        : `确定要暂停任务「${j.label}」吗？暂停后不再按计划运行。`,
    );
  const save = async () => {
    if (!editing) return;
    const { cron } = await form.validateFields();
    const r = await update(JOB_PATHS.update, { code: editing.code, cron }).catch(() => null);
    if (r?.ok) {
      setEditing(null);
      refresh();
    }
  };

  const columns: TableColumnsType<JobView> = [
    {
      title: '任务名称',
      key: 'label',
      width: 120,
      render: (_, j) => <Tooltip title={j.description}>{j.label}</Tooltip>,
    },
    { title: CRON_LABEL, key: 'cron', width: 140, render: (_, j) => <code>{j.cron}</code> },
    {
      title: '状态',
      key: 'paused',
      width: 80,
      render: (_, j) => (j.paused ? <Tag>已暂停</Tag> : <Tag color="green">启用</Tag>),
    },
    {
      title: '上次运行',
      key: 'last',
      width: 170,
      render: (_, j) => formatDateTime(j.lastRun?.startedAt) || '—',
    },
    {
      title: '耗时',
      key: 'duration',
      width: 100,
      render: (_, j) => formatDuration(j.lastRun?.durationMs ?? null),
    },
    {
      title: '结果',
      key: 'result',
      width: 80,
      render: (_, j) =>
        j.lastRun?.result === 'running' && j.lastRun.progress ? (
          <Space direction="vertical" size={0} data-testid={`job-progress-${j.code}`}>
            <ResultTag run={j.lastRun} />
            <Typography.Text type="secondary">{runDetail(j.lastRun)}</Typography.Text>
          </Space>
        ) : (
          <ResultTag run={j.lastRun} />
        ),
    },
    { title: '下次运行', key: 'next', width: 170, render: (_, j) => formatDateTime(j.nextAt) || '—' },
    {
      title: '操作',
      key: 'actions',
      render: (_, j) => (
        <Space size={0} wrap>
          {buttons.has('run') ? (
            <Button type="link" size="small" onClick={() => runNow(j)}>
              立即执行
            </Button>
          ) : null}
          {buttons.has('update') ? (
            <Button
              type="link"
              size="small"
              onClick={() => {
                form.setFieldsValue({ cron: j.cron });
                setEditing(j);
              }}
            >
              修改
            </Button>
          ) : null}
          {buttons.has('status') ? (
            <Button type="link" size="small" onClick={() => togglePause(j)}>
              {j.paused ? '恢复' : '暂停'}
            </Button>
          ) : null}
          <Button type="link" size="small" onClick={() => setViewing(j)}>
            运行记录
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="jobs-page">
      <Table<JobView>
        size="small"
        rowKey="code"
        loading={jobs.isLoading}
        columns={columns}
        dataSource={jobs.data ?? []}
        pagination={false}
      />
      <Modal
        title={editing ? `修改任务「${editing.label}」的执行计划` : ''}
        open={editing !== null}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        okText="保存"
        cancelText="取消"
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="cron"
            label={CRON_LABEL}
            rules={[{ required: true, whitespace: true, message: `请输入${CRON_LABEL}` }]}
            extra={`分 时 日 月 周（东八区），如 0 2 * * * 为每天 2:00；默认 ${editing?.defaultCron ?? ''}`}
          >
            <Input maxLength={100} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title={viewing ? `任务「${viewing.label}」运行记录` : ''}
        open={viewing !== null}
        onCancel={() => setViewing(null)}
        footer={null}
        width={1000}
        destroyOnHidden
      >
        {viewing ? <RunHistory job={viewing} /> : null}
      </Modal>
    </div>
  );
}
