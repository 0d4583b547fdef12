import { bigint, bigserial, boolean, char, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { dateColumn, moneyColumn, timestamptz } from '../../platform/db/columns';

/** Drizzle mirror of migrations/0031_vouchers.sql (docs/accounting.md). */
export const voucherAccounts = pgTable('voucher_accounts', {
  role: text('role').primaryKey(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  version: integer('version').notNull().default(0),
  updatedAt: timestamptz('updated_at'),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  /** 凭证引入 (migration 0052): the package's codes, null meaning ours; the auxiliary, null the role's default. */
  yonyouCode: text('yonyou_code'),
  kingdeeCode: text('kingdee_code'),
  packageAux: boolean('package_aux'),
});

export const voucherPeriods = pgTable('voucher_periods', {
  period: char('period', { length: 7 }).primaryKey(),
  lastNo: integer('last_no').notNull(),
});

export const vouchers = pgTable('vouchers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  period: char('period', { length: 7 }).notNull(),
  /** Null only inside the posting's transaction: given at its commit (migration 0053). */
  no: integer('no'),
  voucherDate: dateColumn('voucher_date').notNull(),
  summary: text('summary').notNull(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  redOf: bigint('red_of', { mode: 'number' }),
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  createdBy: bigint('created_by', { mode: 'number' }),
});

export const voucherLines = pgTable('voucher_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  voucherId: bigint('voucher_id', { mode: 'number' }).notNull(),
  lineNo: integer('line_no').notNull(),
  role: text('role').notNull(),
  accountCode: text('account_code').notNull(),
  accountName: text('account_name').notNull(),
  summary: text('summary').notNull(),
  debit: moneyColumn('debit').notNull().default('0'),
  credit: moneyColumn('credit').notNull().default('0'),
  custCode: text('cust_code'),
  custName: text('cust_name'),
  contractNo: text('contract_no'),
});

/**
 * Each account's debit and credit per period, kept by a trigger on voucher_lines in the posting's
 * transaction (migration 0038): what the trial balance reads (docs/accounting.md "Trial balance").
 */
export const voucherAccountPeriods = pgTable(
  'voucher_account_periods',
  {
    period: char('period', { length: 7 }).notNull(),
    accountCode: text('account_code').notNull(),
    accountName: text('account_name').notNull(),
    debit: moneyColumn('debit').notNull(),
    credit: moneyColumn('credit').notNull(),
    lines: integer('lines').notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.accountCode, t.accountName] })],
);
