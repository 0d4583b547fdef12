import { bigint, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamptz } from '../../platform/db/columns';

/** Drizzle mirror of migrations/0027_system_params.sql: one row per 参数设置 setting. */
export const systemParams = pgTable('system_params', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
});
