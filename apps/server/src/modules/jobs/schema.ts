import { bigint, bigserial, boolean, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamptz } from '../../platform/db/columns';
import type { RunRows } from '../../platform/progress';

/**
 * Drizzle mirror of migrations/0046_jobs.sql: 定时任务 and their runs (docs/operations.md
 * "Scheduled jobs"). The scheduler reads and writes them with SQL of its own (scheduler.ts).
 */
export const jobs = pgTable('jobs', {
  code: text('code').primaryKey(),
  cron: text('cron').notNull(),
  paused: boolean('paused').notNull().default(false),
  nextAt: timestamptz('next_at'),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
});

export const jobRuns = pgTable('job_runs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  job: text('job').notNull(),
  trigger: text('trigger').notNull(),
  scheduledFor: timestamptz('scheduled_for'),
  startedAt: timestamptz('started_at')
    .notNull()
    .default(sql`now()`),
  endedAt: timestamptz('ended_at'),
  result: text('result').notNull(),
  detail: text('detail'),
  error: text('error'),
  server: text('server').notNull(),
  startedBy: bigint('started_by', { mode: 'number' }),
  progress: jsonb('progress'),
  progressAt: timestamptz('progress_at'),
});

/** Job runs as the progress reporter writes them (platform/progress.ts). */
export const JOB_RUN_ROWS: RunRows = { table: jobRuns, state: jobRuns.result };
