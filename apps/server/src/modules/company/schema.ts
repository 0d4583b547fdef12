import { sql } from 'drizzle-orm';
import { bigserial, boolean, char, date, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, softDelete, makerOrg, timestamptz } from '../../platform/db/columns';

export const companies = pgTable('companies', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  compName: text('comp_name').notNull(),
  usccCode: char('uscc_code', { length: 18 }).notNull(),
  compType: text('comp_type').notNull(),
  roles: text('roles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  legalPerson: text('legal_person').notNull(),
  regCapital: numeric('reg_capital', { precision: 18, scale: 2 }).notNull(),
  establishDate: date('establish_date', { mode: 'string' }),
  provinceCode: char('province_code', { length: 6 }),
  cityCode: char('city_code', { length: 6 }),
  areaCode: char('area_code', { length: 6 }),
  address: text('address'),
  industry: text('industry'),
  contactName: text('contact_name'),
  contactPhone: text('contact_phone'),
  contactEmail: text('contact_email'),
  parentCompCode: char('parent_comp_code', { length: 12 }),
  state: text('state').notNull().default('enabled'),
  remark: text('remark'),
  /** 关联方: a related party of the factoring company (监管报表, migration 0052). */
  relatedParty: boolean('related_party').notNull().default(false),
  /** 客户准入 (migration 0058, docs/admission.md): pending until a 客户准入单 is approved. */
  admission: text('admission').notNull().default('pending'),
  admittedAt: timestamptz('admitted_at'),
  admissionCode: char('admission_code', { length: 12 }),
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
