-- Money (DOMAIN.md "Money"): prepayments (前期款), incoming payments (来款), write-offs against
-- plans (来款核销) with their allocation lines, and paid-red entries (来款核销冲红).
-- The bounds that matter live here as CHECKs; approvals move them with guarded updates under
-- row locks (contract → plan items → incoming → credit lines).
create sequence code_seq_prepayment;
create sequence code_seq_income;
create sequence code_seq_paid;
create sequence code_seq_paid_red;

-- A prepayment (workflow document 'prepayment'): up-front dues of a contract collected before
-- financing; its approval adds each line to the due's received_amount.
create table prepayments (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  method text not null check (method in ('deduct', 'transfer')),
  bank_biz_code char(12) not null,
  receive_date date not null,
  payer_name text,
  amount numeric(18, 2) not null check (amount > 0),
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
create index prepayments_contract_idx on prepayments (contract_id) where deleted_at is null;

create table prepayment_lines (
  id bigserial primary key,
  prepayment_id bigint not null references prepayments (id),
  due_id bigint not null references contract_dues (id),
  amount numeric(18, 2) not null check (amount > 0),
  unique (prepayment_id, due_id)
);

-- An incoming payment (workflow document 'income'). allocated moves only with approved
-- write-offs (up) and approved red entries (down); the balance amount − allocated is never < 0.
create table incomes (
  id bigserial primary key,
  biz_code char(12) not null unique,
  bank_biz_code char(12) not null,
  payer_name text not null,
  payer_account text,
  payer_bank text,
  amount numeric(18, 2) not null check (amount > 0),
  allocated numeric(18, 2) not null default 0,
  value_date date not null,
  serial_no text not null,
  source text not null default 'manual' check (source in ('manual', 'import')),
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
  deleted_at timestamptz,
  check (allocated >= 0 and allocated <= amount)
);
-- A bank serial number is unique per receiving account.
create unique index incomes_serial_key on incomes (bank_biz_code, serial_no) where deleted_at is null;
create index incomes_value_date_idx on incomes (value_date) where deleted_at is null;

-- A write-off (workflow document 'paid'): lines incoming → plan item → component → amount.
-- released: what its approval released on the credit line; settled_contract: it settled the
-- contract; red: reversed by an approved paid-red entry (once).
create table paids (
  id bigserial primary key,
  biz_code char(12) not null unique,
  income_id bigint not null references incomes (id),
  contract_id bigint not null references contracts (id),
  paid_date date not null,
  kind text not null check (kind in ('normal', 'settlement', 'manual')),
  amount numeric(18, 2) not null check (amount > 0),
  principal numeric(18, 2) not null default 0 check (principal >= 0),
  released numeric(18, 2) not null default 0 check (released >= 0),
  settled_contract boolean not null default false,
  red boolean not null default false,
  remark text,
  state text not null default 'draft' check (state in ('draft', 'pending', 'approved', 'rejected')),
  submitted_at timestamptz,
  submitted_by bigint,
  approved_at timestamptz,
  approved_by bigint,
  -- The order of postings on a contract (reverse the latest first).
  posting_seq bigint,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check (not red or state = 'approved'),
  check (principal <= amount)
);
create index paids_income_idx on paids (income_id) where deleted_at is null;
create index paids_contract_idx on paids (contract_id) where deleted_at is null;
create sequence paid_posting_seq;

create table paid_lines (
  id bigserial primary key,
  paid_id bigint not null references paids (id),
  plan_item_id bigint not null references contract_plan_items (id),
  component text not null check (component in ('PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL')),
  amount numeric(18, 2) not null check (amount > 0),
  unique (paid_id, plan_item_id, component)
);
create index paid_lines_item_idx on paid_lines (plan_item_id);

-- Scheduled interest and fee an early settlement gives up (its approval lowers the item's due by
-- them; a red reversal restores them).
create table paid_waivers (
  id bigserial primary key,
  paid_id bigint not null references paids (id),
  plan_item_id bigint not null references contract_plan_items (id),
  component text not null check (component in ('INTEREST', 'FEE')),
  amount numeric(18, 2) not null check (amount > 0),
  unique (paid_id, plan_item_id, component)
);

-- A paid-red entry (workflow document 'paidRed'): reverses exactly one approved write-off.
create table paid_reds (
  id bigserial primary key,
  biz_code char(12) not null unique,
  paid_id bigint not null references paids (id),
  red_date date not null,
  reason text,
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
-- One live entry per write-off.
create unique index paid_reds_paid_key on paid_reds (paid_id) where deleted_at is null;
