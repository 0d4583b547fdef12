import { bigint, bigserial, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { dateColumn, moneyColumn, timestamptz } from '../../platform/db/columns';

/** Drizzle mirror of migrations/0051_collections.sql (the SQL file is the source of truth). */
export const collectionCases = pgTable('collection_cases', {
  contractId: bigint('contract_id', { mode: 'number' }).primaryKey(),
  assigneeId: bigint('assignee_id', { mode: 'number' }),
  nextAction: text('next_action'),
  nextActionDate: dateColumn('next_action_date'),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
});

/** 催收记录: one contact and what came of it, with a promise to pay when one was made. */
export const collectionRecords = pgTable('collection_records', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  contactDate: dateColumn('contact_date').notNull(),
  channel: text('channel').notNull(),
  contactPerson: text('contact_person'),
  result: text('result').notNull(),
  note: text('note'),
  promiseDate: dateColumn('promise_date'),
  promiseAmount: moneyColumn('promise_amount'),
  promiseState: text('promise_state'),
  promisePaid: moneyColumn('promise_paid'),
  judgedOn: dateColumn('judged_on'),
  createdBy: bigint('created_by', { mode: 'number' }),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
});

/** The reminders the day-end has sent: one per person, plan item and day offset. */
export const collectionReminders = pgTable('collection_reminders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  planItemId: bigint('plan_item_id', { mode: 'number' }).notNull(),
  offsetDays: integer('offset_days').notNull(),
  businessDate: dateColumn('business_date').notNull(),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
});
