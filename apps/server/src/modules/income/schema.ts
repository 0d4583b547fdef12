import { bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  makerOrg,
} from '../../platform/db/columns';

/** Drizzle mirror of the incomes table of migrations/0009_money.sql. */
export const incomes = pgTable('incomes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  bankBizCode: char('bank_biz_code', { length: 12 }).notNull(),
  payerName: text('payer_name').notNull(),
  payerAccount: text('payer_account'),
  payerBank: text('payer_bank'),
  amount: moneyColumn('amount').notNull(),
  // Moved only by write-off and paid-red approvals (guarded updates, CHECK allocated <= amount).
  allocated: moneyColumn('allocated').notNull().default('0'),
  valueDate: dateColumn('value_date').notNull(),
  serialNo: text('serial_no').notNull(),
  source: text('source').notNull().default('manual'),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
