import { bigint, bigserial, date, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { moneyColumn, timestamptz } from '../../platform/db/columns';
import type { RunRows } from '../../platform/progress';

/** Drizzle mirror of migrations/0021_business_date.sql (the SQL file is the source of truth). */
export const dayEndRuns = pgTable('day_end_runs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  businessDate: date('business_date', { mode: 'string' }).notNull(),
  trigger: text('trigger').notNull(),
  state: text('state').notNull().default('running'),
  startedAt: timestamptz('started_at')
    .notNull()
    .default(sql`now()`),
  endedAt: timestamptz('ended_at'),
  startedBy: bigint('started_by', { mode: 'number' }),
  contracts: integer('contracts').notNull().default(0),
  overdueItems: integer('overdue_items').notNull().default(0),
  penaltyOfDay: moneyColumn('penalty_of_day').notNull().default('0'),
  remindersAdded: integer('reminders_added').notNull().default(0),
  error: text('error'),
  progress: jsonb('progress'),
  progressAt: timestamptz('progress_at'),
});

/** Day-end runs as the progress reporter writes them (platform/progress.ts). */
export const DAY_END_RUN_ROWS: RunRows = { table: dayEndRuns, state: dayEndRuns.state };

export const dayEndItems = pgTable(
  'day_end_items',
  {
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    planItemId: bigint('plan_item_id', { mode: 'number' }).notNull(),
    contractId: bigint('contract_id', { mode: 'number' }).notNull(),
    overdueDays: integer('overdue_days').notNull(),
    principalOverdue: moneyColumn('principal_overdue').notNull(),
    // Null on marks written before migration 0066 recorded them.
    interestOverdue: moneyColumn('interest_overdue'),
    feeOverdue: moneyColumn('fee_overdue'),
    penaltyOfDay: moneyColumn('penalty_of_day').notNull(),
    penaltyAccrued: moneyColumn('penalty_accrued').notNull(),
    // Null on marks written before migration 0069 recorded it.
    penaltyOwed: moneyColumn('penalty_owed'),
  },
  (t) => [primaryKey({ columns: [t.businessDate, t.planItemId] })],
);

export const reminders = pgTable('reminders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  planItemId: bigint('plan_item_id', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  businessDate: date('business_date', { mode: 'string' }).notNull(),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
});
