import { sql } from 'drizzle-orm';
import { bigint, bigserial, char, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { dateColumn, timestamptz } from '../../platform/db/columns';

/** Drizzle mirror of migrations/0056_assignment_notices.sql (the SQL file is the source of truth). */
export const assignmentNotices = pgTable('assignment_notices', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  debtorName: text('debtor_name').notNull(),
  confirmDate: dateColumn('confirm_date'),
  confirmedBy: text('confirmed_by'),
  confirmRecordedBy: bigint('confirm_recorded_by', { mode: 'number' }),
  confirmRecordedAt: timestamptz('confirm_recorded_at'),
  waiveReason: text('waive_reason'),
  waivedBy: bigint('waived_by', { mode: 'number' }),
  waivedAt: timestamptz('waived_at'),
  version: integer('version').notNull().default(0),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
});
