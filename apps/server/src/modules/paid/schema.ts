import { bigint, bigserial, boolean, char, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  makerOrg,
} from '../../platform/db/columns';

/** Drizzle mirror of the write-off tables of migrations/0009_money.sql. */
export const paids = pgTable('paids', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  /**
   * Null on a buy-back's closing write-off (kind 'buyback', migration 0055) and on what was repaid
   * before the 期初导入 (kind 'opening', migration 0059): no incoming stands behind either.
   */
  incomeId: bigint('income_id', { mode: 'number' }),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  paidDate: dateColumn('paid_date').notNull(),
  kind: text('kind').notNull(),
  amount: moneyColumn('amount').notNull(),
  principal: moneyColumn('principal').notNull().default('0'),
  released: moneyColumn('released').notNull().default('0'),
  settledContract: boolean('settled_contract').notNull().default(false),
  red: boolean('red').notNull().default(false),
  remark: text('remark'),
  postingSeq: bigint('posting_seq', { mode: 'number' }),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const paidLines = pgTable('paid_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  paidId: bigint('paid_id', { mode: 'number' }).notNull(),
  planItemId: bigint('plan_item_id', { mode: 'number' }).notNull(),
  component: text('component').notNull(),
  amount: moneyColumn('amount').notNull(),
  /** A principal line of a write-off dated after its item's due date; kept by triggers (migration 0038). */
  principalLate: boolean('principal_late').notNull().default(false),
});

export const paidWaivers = pgTable('paid_waivers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  paidId: bigint('paid_id', { mode: 'number' }).notNull(),
  planItemId: bigint('plan_item_id', { mode: 'number' }).notNull(),
  component: text('component').notNull(),
  amount: moneyColumn('amount').notNull(),
});

export const paidReds = pgTable('paid_reds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  paidId: bigint('paid_id', { mode: 'number' }).notNull(),
  redDate: dateColumn('red_date').notNull(),
  reason: text('reason'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
