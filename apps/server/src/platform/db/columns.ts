import { bigint, integer, timestamp } from 'drizzle-orm/pg-core';

/** created/updated at/by and version: every editable table has them (DESIGN.md). */
export const auditColumns = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  createdBy: bigint('created_by', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  version: integer('version').notNull().default(0),
};

export const softDelete = {
  deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'string' }),
};
