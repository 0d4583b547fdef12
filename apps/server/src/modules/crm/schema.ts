import { bigserial, boolean, char, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, softDelete } from '../../platform/db/columns';

/** Departments of a customer enterprise (组织架构), a tree per enterprise. */
export const compDepts = pgTable('comp_depts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  deptCode: char('dept_code', { length: 12 }).notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  parentDeptCode: char('parent_dept_code', { length: 12 }),
  deptName: text('dept_name').notNull(),
  sort: integer('sort').notNull().default(0),
  ...auditColumns,
  ...softDelete,
});

/** The people of a customer enterprise (企业用户); one of them may be its administrator. */
export const compUsers = pgTable('comp_users', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userCode: char('user_code', { length: 12 }).notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  userName: text('user_name').notNull(),
  mobile: text('mobile').notNull(),
  idCardNo: text('id_card_no'),
  email: text('email'),
  deptCode: char('dept_code', { length: 12 }),
  post: text('post'),
  isManager: boolean('is_manager').notNull().default(false),
  regState: text('reg_state').notNull().default('pending'),
  regComment: text('reg_comment'),
  state: text('state').notNull().default('enabled'),
  remark: text('remark'),
  ...auditColumns,
  ...softDelete,
});
