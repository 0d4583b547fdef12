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
