import { bigint, bigserial, char, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  makerOrg,
  softDelete,
  timestamptz,
} from '../../platform/db/columns';

/** Drizzle mirror of migrations/0030_classification.sql (the SQL file is the source of truth). */
export const contractClasses = pgTable(
  'contract_classes',
  {
    contractId: bigint('contract_id', { mode: 'number' }).notNull(),
    businessDate: dateColumn('business_date').notNull(),
    overdueDays: integer('overdue_days').notNull(),
    proposedClass: text('proposed_class').notNull(),
    assetClass: text('asset_class').notNull(),
    adjustmentId: bigint('adjustment_id', { mode: 'number' }),
    source: text('source').notNull().default('dayEnd'),
    recordedAt: timestamptz('recorded_at')
      .notNull()
      .default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.businessDate] })],
);

/** 分类调整单 (workflow document classAdjust). */
export const classAdjustments = pgTable('class_adjustments', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  fromClass: text('from_class'),
  toClass: text('to_class').notNull(),
  reason: text('reason').notNull(),
  effectiveDate: dateColumn('effective_date'),
  baseClass: text('base_class'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
