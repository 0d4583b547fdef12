import { z } from 'zod';
import { bool, oneOf, text } from './fields';
import { listSchema } from './list';

/**
 * 系统管理 → 定时任务 (docs/operations.md "Scheduled jobs"): the jobs the server runs on a cron
 * schedule, their history, 立即执行, and the schedule an administrator may change or pause.
 */
export const JOB_PATHS = {
  list: '/system/api/job/list',
  runs: '/system/api/job/runs',
  run: '/system/api/job/run',
  update: '/system/api/job/update',
  setPaused: '/system/api/job/setPaused',
} as const;

export const JOB_MENU = 'system-job';

/** Every job the server knows, in the order the screen lists them. */
export const JOB_CODES = [
  'dayEnd',
  'monthEndAccrual',
  'logPurge',
  'backup',
  'keyRotation',
  'sessionCleanup',
] as const;
export type JobCode = (typeof JOB_CODES)[number];

export const JOB_LABELS: Record<JobCode, string> = {
  dayEnd: '日终',
  monthEndAccrual: '月末计提',
  logPurge: '日志清理',
  backup: '数据备份',
  keyRotation: '密钥轮换',
  sessionCleanup: '会话清理',
};

export const JOB_RESULTS = ['running', 'ok', 'failed'] as const;
export type JobResult = (typeof JOB_RESULTS)[number];
export const JOB_RESULT_LABELS: Record<JobResult, string> = { running: '运行中', ok: '成功', failed: '失败' };

export const JOB_TRIGGERS = ['schedule', 'manual'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];
export const JOB_TRIGGER_LABELS: Record<JobTrigger, string> = { schedule: '定时', manual: '立即执行' };

/** The field name the screen and the server's messages give the cron expression. */
export const CRON_LABEL = 'Cron表达式';
/** Schedules are read in the office's time zone, as the business date is (docs/business-date.md). */
export const JOB_TIME_ZONE = 'Asia/Shanghai';

export interface JobRunView {
  id: number;
  job: JobCode;
  jobLabel: string;
  trigger: JobTrigger;
  triggerLabel: string;
  /** The scheduled time a 定时 run answers; null for 立即执行. */
  scheduledFor: string | null;
  startedAt: string;
  endedAt: string | null;
  /** Milliseconds from start to end; null while running. */
  durationMs: number | null;
  result: JobResult;
  resultLabel: string;
  /** What the run did, in words. */
  detail: string | null;
  /** Why a failed run failed. */
  error: string | null;
  /** Which server ran it. */
  server: string;
  startedByName: string | null;
  /** While 运行中: how far it is (written by the running server, docs/business-date.md "Progress"). */
  progress: RunProgress | null;
}

export interface JobView {
  code: JobCode;
  label: string;
  /** What the job does, in words. */
  description: string;
  cron: string;
  /** The built-in schedule, for the form's hint. */
  defaultCron: string;
  paused: boolean;
  /** Null while paused. */
  nextAt: string | null;
  lastRun: JobRunView | null;
}

const jobCode = oneOf('任务', JOB_CODES);

export const jobCodeSchema = z.object({ code: jobCode });
export const jobUpdateSchema = z.object({ code: jobCode, cron: text(CRON_LABEL, 100) });
export const jobPausedSchema = z.object({ code: jobCode, paused: bool('暂停') });
export const jobRunsSchema = listSchema({ code: jobCode }, ['startedAt'] as const);
export type JobRunsInput = z.input<typeof jobRunsSchema>;
export type JobRunsQuery = z.output<typeof jobRunsSchema>;

/**
 * The phases of a long run (the day-end, the month-end accrual) the screens name while it runs
 * (docs/business-date.md "Progress"). Each is a verb phrase read after 正在.
 */
const RUN_PHASE_LABELS = {
  waiting: '等待其他日终或计提结束',
  accrual: '计提',
  reversal: '冲回计提',
  deferral: '摊销预收利息',
  overdue: '计算逾期',
  marks: '写入逾期明细',
  classify: '五级分类',
  provision: '计提减值准备',
  reminders: '写入到期提醒',
  collections: '生成催收提醒',
  guarantees: '检查担保到期',
  keepLedger: '保存台账数据',
} as const;
export type RunPhase = keyof typeof RUN_PHASE_LABELS;

/** How far a running day-end or job is, as the running server last wrote it. */
export interface RunProgress {
  phase: RunPhase;
  /** Contracts done in this phase, of `total` (0 of 0: a phase of one statement). */
  done: number;
  total: number;
  /** Rows the run has written so far (voucher lines, overdue marks, reminders). */
  rows: number;
  /** The business date of the day-end (or month end of the accrual) this phase works on. */
  date: string | null;
}

const n = (v: number) => v.toLocaleString('en-US');

/** 正在计提 12,000 / 100,000 份合同（已写入 24,000 行）: a progress in words. */
export function progressText(p: RunProgress): string {
  const label = RUN_PHASE_LABELS[p.phase] ?? p.phase;
  const of = p.total > 0 ? ` ${n(p.done)} / ${n(p.total)} 份合同` : '';
  const rows = p.rows > 0 ? `（已写入 ${n(p.rows)} 行）` : '';
  return `${p.date ? `${p.date} ` : ''}正在${label}${of}${rows}`;
}

/** The share done, 0–100, of a phase that counts contracts (null when it does not). */
export function progressPercent(p: RunProgress): number | null {
  return p.total > 0 ? Math.min(100, Math.floor((p.done * 100) / p.total)) : null;
}
