import { bigint, bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  makerOrg,
} from '../../platform/db/columns';

/** Drizzle mirror of the prepayment tables of migrations/0009_money.sql. */
export const prepayments = pgTable('prepayments', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  method: text('method').notNull(),
  bankBizCode: char('bank_biz_code', { length: 12 }).notNull(),
  receiveDate: dateColumn('receive_date').notNull(),
  payerName: text('payer_name'),
  amount: moneyColumn('amount').notNull(),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const prepaymentLines = pgTable('prepayment_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  prepaymentId: bigint('prepayment_id', { mode: 'number' }).notNull(),
  dueId: bigint('due_id', { mode: 'number' }).notNull(),
  amount: moneyColumn('amount').notNull(),
});
