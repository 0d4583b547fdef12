import { bigint, bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  makerOrg,
  moneyColumn,
  quoteParts,
  redColumns,
  softDelete,
} from '../../platform/db/columns';

/** Drizzle mirror of migrations/0055_buyback.sql. */
export const buybacks = pgTable('buybacks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  buybackDate: dateColumn('buyback_date').notNull(),
  ...quoteParts,
  settled: moneyColumn('settled').notNull().default('0'),
  released: moneyColumn('released').notNull().default('0'),
  paidId: bigint('paid_id', { mode: 'number' }),
  remark: text('remark'),
  ...redColumns,
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const buybackSettlements = pgTable('buyback_settlements', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  buybackId: bigint('buyback_id', { mode: 'number' }).notNull(),
  incomeId: bigint('income_id', { mode: 'number' }).notNull(),
  settleDate: dateColumn('settle_date').notNull(),
  amount: moneyColumn('amount').notNull(),
  principal: moneyColumn('principal').notNull().default('0'),
  released: moneyColumn('released').notNull().default('0'),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
