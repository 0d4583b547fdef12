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

/** Drizzle mirror of migrations/0061_bad_debt.sql. */
export const badDebts = pgTable('bad_debts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  writeOffDate: dateColumn('write_off_date').notNull(),
  principal: moneyColumn('principal').notNull(),
  interest: moneyColumn('interest').notNull(),
  fee: moneyColumn('fee').notNull(),
  penalty: moneyColumn('penalty').notNull(),
  amount: moneyColumn('amount').notNull(),
  reserveUsed: moneyColumn('reserve_used').notNull().default('0'),
  lossCharged: moneyColumn('loss_charged').notNull().default('0'),
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
