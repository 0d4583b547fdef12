import { sql } from 'drizzle-orm';
import { bigint, bigserial, char, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  timestamptz,
  makerOrg,
} from '../../platform/db/columns';

/** Drizzle mirror of migrations/0015_crm_change.sql. */
export const compInfoChanges = pgTable('comp_info_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  baseVersion: integer('base_version').notNull(),
  beforeValues: jsonb('before_values').notNull(),
  reason: text('reason'),
  compName: text('comp_name').notNull(),
  usccCode: char('uscc_code', { length: 18 }).notNull(),
  compType: text('comp_type').notNull(),
  legalPerson: text('legal_person').notNull(),
  regCapital: moneyColumn('reg_capital').notNull(),
  establishDate: dateColumn('establish_date'),
  provinceCode: char('province_code', { length: 6 }),
  cityCode: char('city_code', { length: 6 }),
  areaCode: char('area_code', { length: 6 }),
  address: text('address'),
  industry: text('industry'),
  roles: text('roles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  contactName: text('contact_name'),
  contactPhone: text('contact_phone'),
  contactEmail: text('contact_email'),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const compManagerChanges = pgTable('comp_manager_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  oldUserCode: char('old_user_code', { length: 12 }),
  oldUserName: text('old_user_name'),
  oldMobile: text('old_mobile'),
  kind: text('kind').notNull(),
  newUserCode: char('new_user_code', { length: 12 }),
  newUserName: text('new_user_name').notNull(),
  newMobile: text('new_mobile').notNull(),
  newIdCardNo: text('new_id_card_no'),
  reason: text('reason').notNull(),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const companyHistory = pgTable('company_history', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  changeType: text('change_type').notNull(),
  field: text('field').notNull(),
  oldValue: text('old_value'),
  newValue: text('new_value'),
  changedBy: bigint('changed_by', { mode: 'number' }),
  changedAt: timestamptz('changed_at')
    .notNull()
    .default(sql`now()`),
});
