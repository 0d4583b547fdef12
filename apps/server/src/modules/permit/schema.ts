import { bigint, bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { auditColumns, timestamptz, makerOrg } from '../../platform/db/columns';

/** Admission records (准入): one per (area, subject), never deleted (migration 0014). */
export const permits = pgTable('permits', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  subject: text('subject').notNull(),
  area: text('area').notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  userCode: char('user_code', { length: 12 }),
  state: text('state').notNull().default('saved'),
  roles: text('roles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  remark: text('remark'),
  openedAt: timestamptz('opened_at'),
  openedBy: bigint('opened_by', { mode: 'number' }),
  disabledAt: timestamptz('disabled_at'),
  disabledBy: bigint('disabled_by', { mode: 'number' }),
  ...auditColumns,
  ...makerOrg,
});

/** The role history of admissions (企业角色变更): a row per opening and per change. */
export const permitRoleChanges = pgTable('permit_role_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  permitId: bigint('permit_id', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  rolesBefore: text('roles_before').array().notNull(),
  rolesAfter: text('roles_after').array().notNull(),
  reason: text('reason'),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  createdBy: bigint('created_by', { mode: 'number' }),
  createdByName: text('created_by_name'),
});
