import { bigint, bigserial, boolean, char, integer, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  timestamptz,
  makerOrg,
} from '../../platform/db/columns';

/** Drizzle mirror of migrations/0020_loan.sql and 0041 (the SQL files are the source of truth). */
export const loans = pgTable('loans', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  valueDate: dateColumn('value_date').notNull(),
  payBankBizCode: char('pay_bank_biz_code', { length: 12 }).notNull(),
  payeeBankBizCode: char('payee_bank_biz_code', { length: 12 }).notNull(),
  serialNo: text('serial_no').notNull(),
  serialKey: text('serial_key').notNull(),
  financingAmount: moneyColumn('financing_amount').notNull(),
  deductedAmount: moneyColumn('deducted_amount').notNull(),
  returnedAmount: moneyColumn('returned_amount').notNull().default('0'),
  netAmount: moneyColumn('net_amount').notNull(),
  remark: text('remark'),
  rebased: boolean('rebased').notNull().default(false),
  redState: text('red_state').notNull().default('none'),
  redReason: text('red_reason'),
  redAt: timestamptz('red_at'),
  redBy: bigint('red_by', { mode: 'number' }),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const loanLines = pgTable('loan_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  loanId: bigint('loan_id', { mode: 'number' }).notNull(),
  dueId: bigint('due_id', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  amount: moneyColumn('amount').notNull(),
  /** The contract's due before the disbursement (migrations/0041). */
  dueAmount: moneyColumn('due_amount').notNull(),
  prepaid: moneyColumn('prepaid').notNull(),
  deducted: moneyColumn('deducted').notNull(),
  returned: moneyColumn('returned').notNull().default('0'),
  sort: integer('sort').notNull().default(0),
});

/** Drizzle mirror of migrations/0025_loan_red.sql: a 放款单冲红 entry (workflow type loanRed). */
export const loanReds = pgTable('loan_reds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  loanId: bigint('loan_id', { mode: 'number' }).notNull(),
  reason: text('reason').notNull(),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
