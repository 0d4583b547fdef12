import { bigserial, boolean, char, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, softDelete, makerOrg } from '../../platform/db/columns';

export const banks = pgTable('banks', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
  state: text('state').notNull().default('enabled'),
});

export const bankAccounts = pgTable('bank_accounts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  ownerType: text('owner_type').notNull(),
  ownerCode: char('owner_code', { length: 12 }),
  bankCode: text('bank_code').notNull(),
  branchName: text('branch_name').notNull(),
  accountName: text('account_name').notNull(),
  accountNo: text('account_no').notNull(),
  currency: text('currency').notNull(),
  purpose: text('purpose').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  remark: text('remark'),
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
