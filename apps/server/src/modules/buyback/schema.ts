import { bigint, bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  makerOrg,
  moneyColumn,
  softDelete,
  timestamptz,
} from '../../platform/db/columns';

/** Drizzle mirror of migrations/0055_buyback.sql. */
export const buybacks = pgTable('buybacks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  buybackDate: dateColumn('buyback_date').notNull(),
  principal: moneyColumn('principal').notNull(),
  interest: moneyColumn('interest').notNull(),
  fee: moneyColumn('fee').notNull(),
  penalty: moneyColumn('penalty').notNull(),
  amount: moneyColumn('amount').notNull(),
  settled: moneyColumn('settled').notNull().default('0'),
  released: moneyColumn('released').notNull().default('0'),
  paidId: bigint('paid_id', { mode: 'number' }),
  remark: text('remark'),
  redState: text('red_state').notNull().default('none'),
  redReason: text('red_reason'),
  redAt: timestamptz('red_at'),
  redBy: bigint('red_by', { mode: 'number' }),
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
