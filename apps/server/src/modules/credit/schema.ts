import { bigint, bigserial, boolean, char, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  timestamptz,
  makerOrg,
} from '../../platform/db/columns';

export const credits = pgTable('credits', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  custCode: char('cust_code', { length: 12 }).notNull(),
  custName: text('cust_name').notNull(),
  limitAmount: moneyColumn('limit_amount').notNull(),
  currency: text('currency').notNull().default('CNY'),
  startDate: dateColumn('start_date').notNull(),
  endDate: dateColumn('end_date').notNull(),
  cycle: text('cycle').notNull(),
  product: text('product').notNull(),
  guaranteeMode: text('guarantee_mode').notNull().default('credit'),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const creditGuarantees = pgTable('credit_guarantees', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  guarantorName: text('guarantor_name').notNull(),
  guarantorCode: char('guarantor_code', { length: 12 }),
  guaranteeType: text('guarantee_type').notNull(),
  amount: moneyColumn('amount').notNull(),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
  guarantorKind: text('guarantor_kind').notNull().default('enterprise'),
  idNo: text('id_no'),
  startDate: dateColumn('start_date').notNull(),
  endDate: dateColumn('end_date').notNull(),
  contractFileToken: text('contract_file_token'),
  releasedOn: dateColumn('released_on'),
  releasedBy: bigint('released_by', { mode: 'number' }),
  releaseReason: text('release_reason'),
});

export const creditCollaterals = pgTable('credit_collaterals', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  name: text('name'),
  value: moneyColumn('value').notNull(),
  valuationDate: dateColumn('valuation_date').notNull(),
  regNo: text('reg_no').notNull(),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
});

export const creditFtItems = pgTable('credit_ft_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  debtorCode: char('debtor_code', { length: 12 }),
  debtorName: text('debtor_name').notNull(),
  limitAmount: moneyColumn('limit_amount').notNull(),
  financingRatio: numeric('financing_ratio', { precision: 5, scale: 4 }).notNull(),
  recourse: text('recourse').notNull(),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
});

export const creditReceivables = pgTable('credit_receivables', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  invoiceCode: text('invoice_code').notNull(),
  invoiceNo: text('invoice_no').notNull(),
  invoiceDate: dateColumn('invoice_date').notNull(),
  amount: moneyColumn('amount').notNull(),
  debtorName: text('debtor_name').notNull(),
  debtorCode: char('debtor_code', { length: 12 }),
  dueDate: dateColumn('due_date').notNull(),
  remark: text('remark'),
  verifyState: text('verify_state').notNull().default('unverified'),
  verifyMsg: text('verify_msg'),
  sort: integer('sort').notNull().default(0),
});

export const creditLines = pgTable('credit_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  kind: text('kind').notNull(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  parentLineId: bigint('parent_line_id', { mode: 'number' }),
  sourceDocCode: char('source_doc_code', { length: 12 }),
  custCode: char('cust_code', { length: 12 }).notNull(),
  custName: text('cust_name').notNull(),
  debtorCode: char('debtor_code', { length: 12 }),
  debtorName: text('debtor_name'),
  product: text('product'),
  limitAmount: moneyColumn('limit_amount').notNull(),
  occupiedAmount: moneyColumn('occupied_amount').notNull().default('0'),
  reservedAmount: moneyColumn('reserved_amount').notNull().default('0'),
  frozen: boolean('frozen').notNull().default(false),
  startDate: dateColumn('start_date').notNull(),
  endDate: dateColumn('end_date').notNull(),
  cycle: text('cycle').notNull(),
  state: text('state').notNull().default('active'),
  ...auditColumns,
});

export const creditLedger = pgTable('credit_ledger', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  lineId: bigint('line_id', { mode: 'number' }).notNull(),
  movement: text('movement').notNull(),
  amount: moneyColumn('amount').notNull(),
  limitAfter: moneyColumn('limit_after').notNull(),
  occupiedAfter: moneyColumn('occupied_after').notNull(),
  reservedAfter: moneyColumn('reserved_after').notNull(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  reason: text('reason'),
  bizDate: dateColumn('biz_date').notNull(),
  actorId: bigint('actor_id', { mode: 'number' }),
  actorName: text('actor_name'),
  at: timestamptz('at')
    .notNull()
    .default(sql`now()`),
});

export const credDistributions = pgTable('cred_distributions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  parentLineId: bigint('parent_line_id', { mode: 'number' }).notNull(),
  totalAmount: moneyColumn('total_amount').notNull(),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const credDistributionItems = pgTable('cred_distribution_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  distId: bigint('dist_id', { mode: 'number' }).notNull(),
  targetType: text('target_type').notNull(),
  custCode: char('cust_code', { length: 12 }),
  custName: text('cust_name'),
  product: text('product'),
  amount: moneyColumn('amount').notNull(),
  remark: text('remark'),
  lineId: bigint('line_id', { mode: 'number' }),
  sort: integer('sort').notNull().default(0),
});

export const credChanges = pgTable('cred_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  lineId: bigint('line_id', { mode: 'number' }).notNull(),
  changeType: text('change_type').notNull(),
  oldLimit: moneyColumn('old_limit').notNull(),
  newLimit: moneyColumn('new_limit'),
  oldEndDate: dateColumn('old_end_date').notNull(),
  newEndDate: dateColumn('new_end_date'),
  reason: text('reason').notNull(),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});
