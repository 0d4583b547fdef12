import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
} from 'drizzle-orm/pg-core';
import {
  auditColumns,
  dateColumn,
  docStateColumns,
  moneyColumn,
  softDelete,
  timestamptz,
  makerOrg,
} from '../../platform/db/columns';

/** Drizzle mirror of migrations/0007_contract.sql (the SQL file is the source of truth). */

const ratio = (name: string) => numeric(name, { precision: 5, scale: 4 });
const code = (name: string) => char(name, { length: 12 });

export const contracts = pgTable('contracts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: code('biz_code').notNull(),
  contractNo: text('contract_no').notNull(),
  recourse: text('recourse').notNull(),
  disclosure: text('disclosure').notNull(),
  product: text('product').notNull(),
  custCode: code('cust_code').notNull(),
  custName: text('cust_name').notNull(),
  coreCompCode: code('core_comp_code'),
  coreCompName: text('core_comp_name'),
  platCredBizCode: code('plat_cred_biz_code').notNull(),
  lineCode: code('line_code').notNull(),
  financingRatio: ratio('financing_ratio').notNull(),
  financingAmount: moneyColumn('financing_amount').notNull(),
  marginRatio: ratio('margin_ratio'),
  receivablesAmount: moneyColumn('receivables_amount').notNull(),
  currency: text('currency').notNull().default('CNY'),
  startDate: dateColumn('start_date').notNull(),
  maturityDate: dateColumn('maturity_date').notNull(),
  ruleBizCode: code('rule_biz_code').notNull(),
  ruleSnapshot: jsonb('rule_snapshot'),
  upfrontInterest: moneyColumn('upfront_interest').notNull().default('0'),
  upfrontFee: moneyColumn('upfront_fee').notNull().default('0'),
  bankBizCode: code('bank_biz_code').notNull(),
  deptCode: code('dept_code'),
  managerId: bigint('manager_id', { mode: 'number' }),
  remark: text('remark'),
  occupiedAmount: moneyColumn('occupied_amount').notNull().default('0'),
  // Kept by database triggers (migrations/0008_contract_figures.sql); never written by code.
  principalOpen: moneyColumn('principal_open').notNull().default('0'),
  interestOpen: moneyColumn('interest_open').notNull().default('0'),
  feeOpen: moneyColumn('fee_open').notNull().default('0'),
  graceDays: integer('grace_days').notNull().default(0),
  status: text('status').notNull().default('none'),
  loanState: text('loan_state').notNull().default('none'),
  loanDate: dateColumn('loan_date'),
  loanAmount: moneyColumn('loan_amount'),
  /** The 放款单 in force (migrations/0020). */
  loanBizCode: code('loan_biz_code'),
  /** The business date of the 期初导入 that brought it in; null when made here (migrations/0059). */
  openingDate: dateColumn('opening_date'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

/** Live contracts per data-scope owner and list state, kept by triggers (migrations/0016). */
export const contractTally = pgTable('contract_tally', {
  createdBy: bigint('created_by', { mode: 'number' }),
  state: text('state').notNull(),
  status: text('status').notNull(),
  loanState: text('loan_state').notNull(),
  n: integer('n').notNull(),
});

/** The tally without the owner (migrations/0018), for users who see every contract. */
export const contractTallyAll = pgTable('contract_tally_all', {
  state: text('state').notNull(),
  status: text('status').notNull(),
  loanState: text('loan_state').notNull(),
  n: integer('n').notNull(),
});

export const contractReceivables = pgTable('contract_receivables', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  invoiceCode: text('invoice_code').notNull(),
  invoiceNo: text('invoice_no').notNull(),
  invoiceDate: dateColumn('invoice_date').notNull(),
  amount: moneyColumn('amount').notNull(),
  debtorName: text('debtor_name').notNull(),
  debtorCode: code('debtor_code'),
  dueDate: dateColumn('due_date').notNull(),
  remark: text('remark'),
  live: boolean('live').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

export const contractPayers = pgTable('contract_payers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  payerName: text('payer_name').notNull(),
  payerCode: code('payer_code'),
  accountName: text('account_name'),
  accountNo: text('account_no'),
  bankName: text('bank_name'),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
});

export const contractPlanItems = pgTable('contract_plan_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  period: integer('period').notNull(),
  startDate: dateColumn('start_date').notNull(),
  dueDate: dateColumn('due_date').notNull(),
  days: integer('days').notNull(),
  principal: moneyColumn('principal').notNull(),
  interest: moneyColumn('interest').notNull(),
  fee: moneyColumn('fee').notNull(),
  penalty: moneyColumn('penalty').notNull().default('0'),
  principalPaid: moneyColumn('principal_paid').notNull().default('0'),
  interestPaid: moneyColumn('interest_paid').notNull().default('0'),
  feePaid: moneyColumn('fee_paid').notNull().default('0'),
  penaltyPaid: moneyColumn('penalty_paid').notNull().default('0'),
  supersededBy: code('superseded_by'),
});

export const contractDues = pgTable('contract_dues', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  amount: moneyColumn('amount').notNull(),
  dueDate: dateColumn('due_date').notNull(),
  receivedAmount: moneyColumn('received_amount').notNull().default('0'),
  /** What of received_amount a disbursement deducted (migrations/0020). */
  deductedAmount: moneyColumn('deducted_amount').notNull().default('0'),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
  /** The rule's figure this up-front due was made or saved against (migrations/0040). */
  ruleAmount: moneyColumn('rule_amount'),
  /** The maker's reason for an amount other than the rule's. */
  reason: text('reason'),
});

export const contractDetails = pgTable('contract_details', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: code('biz_code').notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  tradeContractNo: text('trade_contract_no').notNull(),
  goodsName: text('goods_name').notNull(),
  tradeAmount: moneyColumn('trade_amount').notNull(),
  tradeDate: dateColumn('trade_date'),
  settlementDays: integer('settlement_days'),
  remark: text('remark'),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
});

export const contractChanges = pgTable('contract_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: code('biz_code').notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  reason: text('reason').notNull(),
  effectiveDate: dateColumn('effective_date'),
  proposal: jsonb('proposal').notNull(),
  beforeSnapshot: jsonb('before_snapshot'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const handovers = pgTable('handovers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: code('biz_code').notNull(),
  contractId: bigint('contract_id', { mode: 'number' }).notNull(),
  departmentCode: code('department_code'),
  companyCode: code('company_code'),
  handoverName: text('handover_name').notNull(),
  receiverName: text('receiver_name').notNull(),
  handoverDate: dateColumn('handover_date').notNull(),
  remark: text('remark'),
  ...docStateColumns,
  ...auditColumns,
  ...makerOrg,
  ...softDelete,
});

export const handoverItems = pgTable('handover_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  handoverId: bigint('handover_id', { mode: 'number' }).notNull(),
  docName: text('doc_name').notNull(),
  kind: text('kind').notNull(),
  copies: integer('copies').notNull(),
  pages: integer('pages'),
  remark: text('remark'),
  sort: integer('sort').notNull().default(0),
});
