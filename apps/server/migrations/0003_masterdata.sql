-- Master data: enterprise customers, banks and bank accounts, uploaded files.
create sequence code_seq_comp;
create sequence code_seq_bank_account;

create table companies (
  id bigserial primary key,
  comp_code char(12) not null unique,
  comp_name text not null check (length(comp_name) between 1 and 100),
  uscc_code char(18) not null,
  comp_type text not null,
  roles text[] not null default '{}',
  legal_person text not null,
  reg_capital numeric(18, 2) not null check (reg_capital >= 0),
  establish_date date,
  province_code char(6),
  city_code char(6),
  area_code char(6),
  address text,
  industry text,
  contact_name text,
  contact_phone text,
  contact_email text,
  parent_comp_code char(12),
  state text not null default 'enabled' check (state in ('enabled', 'disabled')),
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check (parent_comp_code is null or parent_comp_code <> comp_code)
);
-- USCC unique among live customers (a deleted one may be entered again).
create unique index companies_uscc_key on companies (uscc_code) where deleted_at is null;
create index companies_name_idx on companies (comp_name) where deleted_at is null;
create index companies_parent_idx on companies (parent_comp_code) where deleted_at is null;
create index companies_created_idx on companies (created_at) where deleted_at is null;

create table banks (
  code text primary key check (code ~ '^[0-9]{3}$'),
  name text not null,
  sort integer not null default 0,
  state text not null default 'enabled' check (state in ('enabled', 'disabled'))
);

create table bank_accounts (
  id bigserial primary key,
  biz_code char(12) not null unique,
  owner_type text not null check (owner_type in ('customer', 'self')),
  owner_code char(12),
  bank_code text not null references banks (code),
  branch_name text not null,
  account_name text not null,
  account_no text not null check (account_no ~ '^[0-9]{8,30}$'),
  currency text not null,
  purpose text not null,
  is_default boolean not null default false,
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check ((owner_type = 'customer') = (owner_code is not null))
);
-- An account number is unique per bank; exactly one default per owner and purpose.
create unique index bank_accounts_no_key on bank_accounts (bank_code, account_no) where deleted_at is null;
create unique index bank_accounts_default_key on bank_accounts (owner_type, coalesce(owner_code, ''), purpose)
  where is_default and deleted_at is null;
create index bank_accounts_owner_idx on bank_accounts (owner_type, owner_code, purpose) where deleted_at is null;

create table files (
  id bigserial primary key,
  file_token text not null unique,
  storage_key text not null,
  original_name text not null,
  mime text not null,
  size bigint not null check (size >= 0),
  sha256 char(64) not null,
  uploaded_by bigint,
  uploaded_by_name text not null,
  doc_type text,
  doc_code text,
  attached_at timestamptz,
  created_at timestamptz not null default now(),
  deleted_at timestamptz,
  check ((doc_type is null) = (doc_code is null))
);
create index files_doc_idx on files (doc_type, doc_code) where deleted_at is null;

create table file_download_tokens (
  token_hash text primary key,
  file_id bigint not null references files (id),
  user_id bigint not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index file_download_tokens_expiry_idx on file_download_tokens (expires_at);
