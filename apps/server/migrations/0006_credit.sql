-- Credit management (授信): credit records with their sections, the occupation ledger's lines and
-- movements, distributions (额度分配) and changes (额度变更). DOMAIN.md "Credit lines".
create sequence code_seq_credit;
create sequence code_seq_credit_line;
create sequence code_seq_cred_dist;
create sequence code_seq_cred_chg;

-- A credit record (workflow document 'credit'): the platform-credit section lives on the row.
create table credits (
  id bigserial primary key,
  biz_code char(12) not null unique,
  cust_code char(12) not null,
  cust_name text not null,
  limit_amount numeric(18, 2) not null check (limit_amount > 0),
  currency text not null default 'CNY' check (currency in ('CNY')),
  start_date date not null,
  end_date date not null,
  cycle text not null check (cycle in ('cyclical', 'oneOff')),
  product text not null,
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
  check (end_date >= start_date)
);
create index credits_cust_idx on credits (cust_code) where deleted_at is null;

create table credit_guarantees (
  id bigserial primary key,
  credit_id bigint not null references credits (id),
  guarantor_name text not null,
  guarantor_code char(12),
  guarantee_type text not null check (guarantee_type in ('joint', 'general', 'mortgage', 'pledge')),
  amount numeric(18, 2) not null check (amount > 0),
  remark text,
  sort integer not null default 0
);
create index credit_guarantees_credit_idx on credit_guarantees (credit_id);

-- Factoring credit (保理授信): per-debtor sub-limits; each becomes a 'debtor' line on approval.
create table credit_ft_items (
  id bigserial primary key,
  credit_id bigint not null references credits (id),
  debtor_code char(12),
  debtor_name text not null,
  limit_amount numeric(18, 2) not null check (limit_amount > 0),
  financing_ratio numeric(5, 4) not null check (financing_ratio >= 0 and financing_ratio <= 1),
  recourse text not null check (recourse in ('with', 'without')),
  remark text,
  sort integer not null default 0
);
create index credit_ft_items_credit_idx on credit_ft_items (credit_id);
create unique index credit_ft_items_debtor_key on credit_ft_items (credit_id, debtor_name);

-- Receivables (应收账款) underlying a credit; an invoice (code + number) exists once in the system.
create table credit_receivables (
  id bigserial primary key,
  credit_id bigint not null references credits (id),
  invoice_code text not null,
  invoice_no text not null,
  invoice_date date not null,
  amount numeric(18, 2) not null check (amount > 0),
  debtor_name text not null,
  debtor_code char(12),
  due_date date not null,
  remark text,
  verify_state text not null default 'unverified' check (verify_state in ('unverified', 'passed', 'failed')),
  verify_msg text,
  sort integer not null default 0
);
create unique index credit_receivables_invoice_key on credit_receivables (invoice_code, invoice_no);
create index credit_receivables_credit_idx on credit_receivables (credit_id);

-- Files: the files module's table (doc_type 'credit' | 'credDistribution', doc_code = the document's biz_code).

-- The ledger's unit. Lines exist only once their document is approved. The bound is in the
-- database: occupied + reserved never exceeds the limit, and neither goes negative.
create table credit_lines (
  id bigserial primary key,
  biz_code char(12) not null unique,
  kind text not null check (kind in ('platform', 'debtor', 'distribution')),
  credit_id bigint not null references credits (id),
  parent_line_id bigint references credit_lines (id),
  source_doc_code char(12),
  cust_code char(12) not null,
  cust_name text not null,
  debtor_code char(12),
  debtor_name text,
  product text,
  limit_amount numeric(18, 2) not null check (limit_amount >= 0),
  occupied_amount numeric(18, 2) not null default 0,
  reserved_amount numeric(18, 2) not null default 0,
  frozen boolean not null default false,
  start_date date not null,
  end_date date not null,
  cycle text not null check (cycle in ('cyclical', 'oneOff')),
  state text not null default 'active' check (state in ('active', 'closed')),
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  check (occupied_amount >= 0 and reserved_amount >= 0 and occupied_amount + reserved_amount <= limit_amount),
  check ((kind = 'platform') = (parent_line_id is null)),
  check (end_date >= start_date)
);
create index credit_lines_credit_idx on credit_lines (credit_id);
create index credit_lines_parent_idx on credit_lines (parent_line_id);
create index credit_lines_cust_idx on credit_lines (cust_code);
create unique index credit_lines_platform_key on credit_lines (credit_id) where kind = 'platform';

-- One row per movement. For every line: occupied = Σ occupy + Σ reoccupy − Σ release, and
-- reserved = Σ reserve − Σ unreserve; *_after are the line's figures after the movement.
create table credit_ledger (
  id bigserial primary key,
  line_id bigint not null references credit_lines (id),
  movement text not null check (movement in ('occupy', 'release', 'reoccupy', 'reserve', 'unreserve', 'create',
    'limit_change', 'extend', 'freeze', 'unfreeze')),
  amount numeric(18, 2) not null,
  limit_after numeric(18, 2) not null,
  occupied_after numeric(18, 2) not null,
  reserved_after numeric(18, 2) not null,
  doc_type text not null,
  doc_code text not null,
  reason text,
  biz_date date not null,
  actor_id bigint,
  actor_name text,
  at timestamptz not null default now(),
  check (amount >= 0 or movement = 'limit_change')
);
create index credit_ledger_line_idx on credit_ledger (line_id, id);
create index credit_ledger_doc_idx on credit_ledger (doc_type, doc_code);

-- Distribution (额度分配, workflow document 'credDistribution').
create table cred_distributions (
  id bigserial primary key,
  biz_code char(12) not null unique,
  credit_id bigint not null references credits (id),
  parent_line_id bigint not null references credit_lines (id),
  total_amount numeric(18, 2) not null check (total_amount > 0),
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
create index cred_distributions_credit_idx on cred_distributions (credit_id) where deleted_at is null;

create table cred_distribution_items (
  id bigserial primary key,
  dist_id bigint not null references cred_distributions (id),
  target_type text not null check (target_type in ('member', 'product')),
  cust_code char(12),
  cust_name text,
  product text,
  amount numeric(18, 2) not null check (amount > 0),
  remark text,
  line_id bigint references credit_lines (id),
  sort integer not null default 0
);
create index cred_distribution_items_dist_idx on cred_distribution_items (dist_id);

-- Change (额度变更, workflow document 'credChange').
create table cred_changes (
  id bigserial primary key,
  biz_code char(12) not null unique,
  credit_id bigint not null references credits (id),
  line_id bigint not null references credit_lines (id),
  change_type text not null check (change_type in ('raise', 'lower', 'extend', 'freeze', 'unfreeze')),
  old_limit numeric(18, 2) not null,
  new_limit numeric(18, 2) check (new_limit > 0),
  old_end_date date not null,
  new_end_date date,
  reason text not null,
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
create index cred_changes_credit_idx on cred_changes (credit_id) where deleted_at is null;
