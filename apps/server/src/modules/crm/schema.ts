import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { auditColumns, dateColumn, softDelete, timestamptz } from '../../platform/db/columns';

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

/** 企业角色: the enterprise's own internal roles (migration 0013). */
export const compRoles = pgTable('comp_roles', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  roleCode: char('role_code', { length: 12 }).notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  roleName: text('role_name').notNull(),
  remark: text('remark'),
  ...auditColumns,
  ...softDelete,
});

export const compUserRoles = pgTable(
  'comp_user_roles',
  {
    roleCode: char('role_code', { length: 12 }).notNull(),
    userCode: char('user_code', { length: 12 }).notNull(),
    createdAt: timestamptz('created_at')
      .notNull()
      .default(sql`now()`),
    createdBy: bigint('created_by', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.roleCode, t.userCode] })],
);

/** 开票信息, one per customer. */
export const compInvoiceInfos = pgTable('comp_invoice_infos', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  invoiceTitle: text('invoice_title').notNull(),
  taxNo: text('tax_no').notNull(),
  address: text('address'),
  phone: text('phone'),
  bankName: text('bank_name').notNull(),
  bankAccountNo: text('bank_account_no').notNull(),
  remark: text('remark'),
  ...auditColumns,
});

/** 企业介绍, one per customer. */
export const compIntros = pgTable('comp_intros', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  intro: text('intro').notNull(),
  mainBusiness: text('main_business'),
  website: text('website'),
  ...auditColumns,
});

/** corporationAdd: actual controller etc., one per customer. */
export const compAddInfos = pgTable('comp_add_infos', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  actualController: text('actual_controller').notNull(),
  controllerIdNo: text('controller_id_no'),
  staffCount: integer('staff_count'),
  businessScope: text('business_scope'),
  ...auditColumns,
});

export const compShareholders = pgTable('comp_shareholders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  sort: integer('sort').notNull().default(0),
  holderName: text('holder_name').notNull(),
  holderType: text('holder_type').notNull(),
  ratio: numeric('ratio', { precision: 7, scale: 4 }).notNull(),
  contribution: numeric('contribution', { precision: 18, scale: 2 }),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  createdBy: bigint('created_by', { mode: 'number' }),
});

/** 企业关系维护. */
export const compRelations = pgTable('comp_relations', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  relType: text('rel_type').notNull(),
  coreCompCode: char('core_comp_code', { length: 12 }).notNull(),
  relCompCode: char('rel_comp_code', { length: 12 }).notNull(),
  startDate: dateColumn('start_date').notNull(),
  endDate: dateColumn('end_date').notNull(),
  remark: text('remark'),
  ...auditColumns,
  ...softDelete,
});

/** Enterprise users authorised to operate a customer bank account. */
export const compBankAccountUsers = pgTable(
  'comp_bank_account_users',
  {
    accountBizCode: char('account_biz_code', { length: 12 }).notNull(),
    userCode: char('user_code', { length: 12 }).notNull(),
    createdAt: timestamptz('created_at')
      .notNull()
      .default(sql`now()`),
    createdBy: bigint('created_by', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.accountBizCode, t.userCode] })],
);
