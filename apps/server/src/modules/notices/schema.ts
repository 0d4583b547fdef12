import { bigint, bigserial, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamptz } from '../../platform/db/columns';

/** Drizzle mirror of migrations/0032_notices.sql: 通知公告 and the organisations they are for. */
export const notices = pgTable('notices', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  publishFrom: timestamptz('publish_from').notNull(),
  publishTo: timestamptz('publish_to').notNull(),
  state: text('state').notNull().default('draft'),
  /** Optimistic lock of an edit (docs/protocol.md "Versions and optimistic locking"). */
  version: integer('version').notNull().default(0),
  createdBy: bigint('created_by', { mode: 'number' }),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
});

export const noticeDepts = pgTable(
  'notice_depts',
  {
    noticeId: bigint('notice_id', { mode: 'number' }).notNull(),
    deptId: bigint('dept_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.deptId] })],
);
