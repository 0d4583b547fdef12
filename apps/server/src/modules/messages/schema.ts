import { bigint, bigserial, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamptz } from '../../platform/db/columns';

/**
 * Drizzle mirror of migrations/0028_messages.sql. The rows are written in the transaction of the
 * event they tell of (docs/operations.md "Messages"): by triggers, and 待审批 by the workflow
 * (todoMessagesInsert, migrations/0045), 通知公告 by the notices module (syncNoticeMessages,
 * migrations/0049); the server otherwise only reads them and marks them read.
 */
export const messages = pgTable('messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  subject: text('subject'),
  fromName: text('from_name'),
  detail: text('detail'),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  readAt: timestamptz('read_at'),
});
