import {
  bigint,
  bigserial,
  boolean,
  char,
  date,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { auditColumns, softDelete } from '../../platform/db/columns';

const money = (name: string) => numeric(name, { precision: 18, scale: 2 });
const day = (name: string) => date(name, { mode: 'string' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** Columns of a workflow document's own state (mirrors the workflow module's draft/pending/approved/rejected). */
const docState = {
  state: text('state').notNull().default('draft'),
  submittedAt: at('submitted_at'),
  submittedBy: bigint('submitted_by', { mode: 'number' }),
  approvedAt: at('approved_at'),
  approvedBy: bigint('approved_by', { mode: 'number' }),
};

export const credits = pgTable('credits', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  custCode: char('cust_code', { length: 12 }).notNull(),
  custName: text('cust_name').notNull(),
  limitAmount: money('limit_amount').notNull(),
  currency: text('currency').notNull().default('CNY'),
  startDate: day('start_date').notNull(),
  endDate: day('end_date').notNull(),
  cycle: text('cycle').notNull(),
  product: text('product').notNull(),
  remark: text('remark'),
  ...docState,
  ...auditColumns,
  ...softDelete,
});

export const creditGuarantees = pgTable('credit_guarantees', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  guarantorName: text('guarantor_name').notNull(),
  guarantorCode: char('guarantor_code', { length: 12 }),
  guaranteeType: text('guarantee_type').notNull(),
  amount: money('amount').notNull(),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
});

export const creditFtItems = pgTable('credit_ft_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  debtorCode: char('debtor_code', { length: 12 }),
  debtorName: text('debtor_name').notNull(),
  limitAmount: money('limit_amount').notNull(),
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
  invoiceDate: day('invoice_date').notNull(),
  amount: money('amount').notNull(),
  debtorName: text('debtor_name').notNull(),
  debtorCode: char('debtor_code', { length: 12 }),
  dueDate: day('due_date').notNull(),
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
  limitAmount: money('limit_amount').notNull(),
  occupiedAmount: money('occupied_amount').notNull().default('0'),
  reservedAmount: money('reserved_amount').notNull().default('0'),
  frozen: boolean('frozen').notNull().default(false),
  startDate: day('start_date').notNull(),
  endDate: day('end_date').notNull(),
  cycle: text('cycle').notNull(),
  state: text('state').notNull().default('active'),
  ...auditColumns,
});

export const creditLedger = pgTable('credit_ledger', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  lineId: bigint('line_id', { mode: 'number' }).notNull(),
  movement: text('movement').notNull(),
  amount: money('amount').notNull(),
  limitAfter: money('limit_after').notNull(),
  occupiedAfter: money('occupied_after').notNull(),
  reservedAfter: money('reserved_after').notNull(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  reason: text('reason'),
  bizDate: day('biz_date').notNull(),
  actorId: bigint('actor_id', { mode: 'number' }),
  actorName: text('actor_name'),
  at: at('at').notNull().defaultNow(),
});

export const credDistributions = pgTable('cred_distributions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  creditId: bigint('credit_id', { mode: 'number' }).notNull(),
  parentLineId: bigint('parent_line_id', { mode: 'number' }).notNull(),
  totalAmount: money('total_amount').notNull(),
  remark: text('remark'),
  ...docState,
  ...auditColumns,
  ...softDelete,
});

export const credDistributionItems = pgTable('cred_distribution_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  distId: bigint('dist_id', { mode: 'number' }).notNull(),
  targetType: text('target_type').notNull(),
  custCode: char('cust_code', { length: 12 }),
  custName: text('cust_name'),
  product: text('product'),
  amount: money('amount').notNull(),
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
  oldLimit: money('old_limit').notNull(),
  newLimit: money('new_limit'),
  oldEndDate: day('old_end_date').notNull(),
  newEndDate: day('new_end_date'),
  reason: text('reason').notNull(),
  ...docState,
  ...auditColumns,
  ...softDelete,
});
