import { bigserial, char, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, docStateColumns, makerOrg, softDelete } from '../../platform/db/columns';

/** 客户准入单 (workflow type custAdmission, migration 0058): the KYC material risk admits a customer on. */
export const custAdmissions = pgTable('cust_admissions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  compCode: char('comp_code', { length: 12 }).notNull(),
  baseVersion: integer('base_version').notNull(),
  legalIdNo: text('legal_id_no').notNull(),
  controllerName: text('controller_name').notNull(),
  bankBizCode: char('bank_biz_code', { length: 12 }).notNull(),
  licenseFile: text('license_file'),
  legalIdFile: text('legal_id_file'),
  controllerFile: text('controller_file'),
  bankProofFile: text('bank_proof_file'),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
