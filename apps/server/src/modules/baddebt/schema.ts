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

/** Drizzle mirror of migrations/0061_bad_debt.sql. */
export const badDebts = pgTable('bad_debts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  writeOffDate: dateColumn('write_off_date').notNull(),
  ...quoteParts,
  reserveUsed: moneyColumn('reserve_used').notNull().default('0'),
  lossCharged: moneyColumn('loss_charged').notNull().default('0'),
  released: moneyColumn('released').notNull().default('0'),
  paidId: bigint('paid_id', { mode: 'number' }),
  remark: text('remark'),
  ...redColumns,
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
