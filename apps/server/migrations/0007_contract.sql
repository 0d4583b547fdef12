-- Contracts (保理合同) with their receivables, payers, plan, dues and business info; contract
-- changes (合同变更) and handover sheets (资料交接单). DOMAIN.md "Contracts and plans".
create sequence code_seq_contract;
create sequence code_seq_contract_detail;
create sequence code_seq_contract_change;
create sequence code_seq_handover;

-- A contract (workflow document 'contract'). `state` is the approval state; `status` the business
-- life once approved; `occupied_amount` what it holds on its credit line now.
create table contracts (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_no text not null,
  recourse text not null check (recourse in ('with', 'without')),
  disclosure text not null check (disclosure in ('disclosed', 'undisclosed')),
  product text not null,
  cust_code char(12) not null,
  cust_name text not null,
  core_comp_code char(12),
  core_comp_name text,
  plat_cred_biz_code char(12) not null,
  line_code char(12) not null,
  financing_ratio numeric(5, 4) not null check (financing_ratio > 0 and financing_ratio <= 1),
  financing_amount numeric(18, 2) not null check (financing_amount > 0),
  margin_ratio numeric(5, 4) check (margin_ratio >= 0 and margin_ratio <= 1),
  receivables_amount numeric(18, 2) not null check (receivables_amount > 0),
  currency text not null default 'CNY',
  start_date date not null,
  maturity_date date not null,
  rule_biz_code char(12) not null,
  -- The rule the plan was computed with (InterestRuleCalc); frozen at approval.
  rule_snapshot jsonb,
  upfront_interest numeric(18, 2) not null default 0 check (upfront_interest >= 0),
  upfront_fee numeric(18, 2) not null default 0 check (upfront_fee >= 0),
  bank_biz_code char(12) not null,
  dept_code char(12),
  manager_id bigint,
  remark text,
  occupied_amount numeric(18, 2) not null default 0,
  status text not null default 'none' check (status in ('none', 'effective', 'settled')),
  loan_state text not null default 'none' check (loan_state in ('none', 'loaned')),
  loan_date date,
  loan_amount numeric(18, 2) check (loan_amount >= 0),
  state text not null default 'draft' check (state in ('draft', 'pending', 'approved', 'rejected')),
  submitted_at timestamptz,
  submitted_by bigint,
  approved_at timestamptz,
  approved_by bigint,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check (maturity_date > start_date),
  check (occupied_amount >= 0 and occupied_amount <= financing_amount),
  check ((loan_state = 'loaned') = (loan_date is not null))
);
create unique index contracts_no_key on contracts (contract_no) where deleted_at is null;
create index contracts_cust_idx on contracts (cust_code) where deleted_at is null;
create index contracts_line_idx on contracts (line_code) where deleted_at is null;
create index contracts_list_idx on contracts (updated_at desc) where deleted_at is null;

-- Receivables transferred (应收账款转让): an invoice belongs to one live contract at a time.
create table contract_receivables (
  id bigserial primary key,
  contract_id bigint not null references contracts (id),
  invoice_code text not null,
  invoice_no text not null,
  invoice_date date not null,
  amount numeric(18, 2) not null check (amount > 0),
  debtor_name text not null,
  debtor_code char(12),
  due_date date not null,
  remark text,
  live boolean not null default true,
  sort integer not null default 0
);
create index contract_receivables_contract_idx on contract_receivables (contract_id);
create unique index contract_receivables_invoice_key on contract_receivables (invoice_code, invoice_no) where live;

-- Payers (付款方信息): the debtors who pay the receivables.
create table contract_payers (
  id bigserial primary key,
  contract_id bigint not null references contracts (id),
  payer_name text not null,
  payer_code char(12),
  account_name text,
  account_no text,
  bank_name text,
  remark text,
  sort integer not null default 0
);
create index contract_payers_contract_idx on contract_payers (contract_id);

-- Plan items (期次). Each component has its due and its paid amount; paid never exceeds due and
-- never goes negative (write-offs add, red reversals subtract). `penalty` is a penalty assessed by
-- hand on top of the accrued one (DOMAIN.md "Penalty"); penalty paid is bounded by the accrual in
-- the write-off's transaction. A change re-plans the unpaid part: superseded items keep their
-- rows (history) with `superseded_by` set and are no longer part of the plan.
create table contract_plan_items (
  id bigserial primary key,
  contract_id bigint not null references contracts (id),
  period integer not null check (period > 0),
  start_date date not null,
  due_date date not null,
  days integer not null check (days >= 0),
  principal numeric(18, 2) not null check (principal >= 0),
  interest numeric(18, 2) not null check (interest >= 0),
  fee numeric(18, 2) not null check (fee >= 0),
  penalty numeric(18, 2) not null default 0 check (penalty >= 0),
  principal_paid numeric(18, 2) not null default 0,
  interest_paid numeric(18, 2) not null default 0,
  fee_paid numeric(18, 2) not null default 0,
  penalty_paid numeric(18, 2) not null default 0 check (penalty_paid >= 0),
  superseded_by char(12),
  check (principal_paid >= 0 and principal_paid <= principal),
  check (interest_paid >= 0 and interest_paid <= interest),
  check (fee_paid >= 0 and fee_paid <= fee),
  check (due_date >= start_date)
);
create index contract_plan_items_contract_idx on contract_plan_items (contract_id, period);
create unique index contract_plan_items_period_key on contract_plan_items (contract_id, period) where superseded_by is null;
create index contract_plan_items_due_idx on contract_plan_items (due_date) where superseded_by is null;

-- Dues (应收费用): margin, up-front interest and fees, service fees. A prepayment receives them.
create table contract_dues (
  id bigserial primary key,
  contract_id bigint not null references contracts (id),
  kind text not null check (kind in ('margin', 'upfrontInterest', 'upfrontFee', 'serviceFee', 'other')),
  amount numeric(18, 2) not null check (amount > 0),
  due_date date not null,
  received_amount numeric(18, 2) not null default 0,
  remark text,
  sort integer not null default 0,
  check (received_amount >= 0 and received_amount <= amount)
);
create index contract_dues_contract_idx on contract_dues (contract_id);

-- Business info (业务信息): the trade behind the receivables; its files are the files module's
-- (doc_type 'contractDetail', doc_code = biz_code).
create table contract_details (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null unique references contracts (id),
  trade_contract_no text not null,
  goods_name text not null,
  trade_amount numeric(18, 2) not null check (trade_amount > 0),
  trade_date date,
  settlement_days integer check (settlement_days >= 0),
  remark text,
  updated_at timestamptz not null default now(),
  updated_by bigint
);

-- A contract change (workflow document 'contractChange'): the proposed values as submitted, and
-- the contract's values before they were applied (kept for the before/after view and history).
create table contract_changes (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  reason text not null,
  effective_date date,
  proposal jsonb not null,
  before_snapshot jsonb,
  state text not null default 'draft' check (state in ('draft', 'pending', 'approved', 'rejected')),
  submitted_at timestamptz,
  submitted_by bigint,
  approved_at timestamptz,
  approved_by bigint,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
create index contract_changes_contract_idx on contract_changes (contract_id) where deleted_at is null;
-- At most one change per contract in flight (draft, pending or rejected awaiting resubmission).
create unique index contract_changes_open_key on contract_changes (contract_id)
  where deleted_at is null and state <> 'approved';

-- A handover sheet (workflow document 'handover'): originals handed over for a contract.
create table handovers (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  department_code char(12),
  company_code char(12),
  handover_name text not null,
  receiver_name text not null,
  handover_date date not null,
  remark text,
  state text not null default 'draft' check (state in ('draft', 'pending', 'approved', 'rejected')),
  submitted_at timestamptz,
  submitted_by bigint,
  approved_at timestamptz,
  approved_by bigint,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
create index handovers_contract_idx on handovers (contract_id) where deleted_at is null;

create table handover_items (
  id bigserial primary key,
  handover_id bigint not null references handovers (id),
  doc_name text not null,
  kind text not null check (kind in ('original', 'copy')),
  copies integer not null check (copies > 0),
  pages integer check (pages > 0),
  remark text,
  sort integer not null default 0
);
create index handover_items_handover_idx on handover_items (handover_id);
