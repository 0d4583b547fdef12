-- 会计凭证 (docs/accounting.md): the account mapping, the vouchers posted by the approved money
-- events and their lines, and the per-period voucher numbers (凭证字号 记-0001 per month).

-- One row per role (what an account is used for); the seed fills the defaults.
create table voucher_accounts (
  role text primary key,
  code text not null check (code ~ '^\d{4,12}$'),
  name text not null check (length(name) between 1 and 40),
  version integer not null default 0,
  updated_at timestamptz,
  updated_by bigint
);

-- The last number given in each period; the upsert's row lock serialises two postings at once.
create table voucher_periods (
  period char(7) primary key,
  last_no integer not null check (last_no > 0)
);

create table vouchers (
  id bigserial primary key,
  period char(7) not null,
  no integer not null check (no > 0),
  voucher_date date not null,
  summary text not null,
  doc_type text not null
    check (doc_type in ('loan', 'loanRed', 'prepayment', 'income', 'paid', 'paidRed', 'accrual')),
  doc_code text not null,
  -- A red reversal names the voucher it mirrors; a voucher is mirrored at most once.
  red_of bigint references vouchers (id),
  created_at timestamptz not null default now(),
  created_by bigint,
  unique (period, no),
  check (to_char(voucher_date, 'YYYY-MM') = period)
);
create unique index vouchers_red_of on vouchers (red_of) where red_of is not null;
create index vouchers_doc on vouchers (doc_type, doc_code);
create index vouchers_date on vouchers (voucher_date);

-- Account code and name are copied at posting: a later mapping change rewrites no voucher.
create table voucher_lines (
  id bigserial primary key,
  voucher_id bigint not null references vouchers (id),
  line_no integer not null,
  role text not null,
  account_code text not null,
  account_name text not null,
  summary text not null,
  debit numeric(18, 2) not null default 0,
  credit numeric(18, 2) not null default 0,
  cust_code text,
  cust_name text,
  contract_no text,
  unique (voucher_id, line_no),
  check (debit = 0 or credit = 0)
);
create index voucher_lines_account on voucher_lines (account_code);
