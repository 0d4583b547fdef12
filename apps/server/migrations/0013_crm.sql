-- CRM sub-pages of a customer enterprise (/crm/corporation edit tabs, relations, account operators).
create sequence code_seq_comp_role;
create sequence code_seq_comp_relation;

-- 企业角色: the enterprise's own internal roles (经办人, 复核人, 财务, …) and who holds them.
create table comp_roles (
  id bigserial primary key,
  role_code char(12) not null unique,
  comp_code char(12) not null,
  role_name text not null check (length(role_name) between 1 and 30),
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
create unique index comp_roles_name_key on comp_roles (comp_code, role_name) where deleted_at is null;

create table comp_user_roles (
  role_code char(12) not null,
  user_code char(12) not null,
  created_at timestamptz not null default now(),
  created_by bigint,
  primary key (role_code, user_code)
);
create index comp_user_roles_user_idx on comp_user_roles (user_code);

-- 开票信息: one per customer.
create table comp_invoice_infos (
  id bigserial primary key,
  comp_code char(12) not null unique,
  invoice_title text not null check (length(invoice_title) between 1 and 100),
  tax_no text not null check (tax_no ~ '^[0-9A-Z]{15,20}$'),
  address text,
  phone text,
  bank_name text not null check (length(bank_name) between 1 and 100),
  bank_account_no text not null check (bank_account_no ~ '^[0-9]{8,30}$'),
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0
);

-- 企业介绍: one per customer.
create table comp_intros (
  id bigserial primary key,
  comp_code char(12) not null unique,
  intro text not null check (length(intro) between 1 and 5000),
  main_business text,
  website text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0
);

-- corporationAdd: actual controller and shareholders, one record per customer.
create table comp_add_infos (
  id bigserial primary key,
  comp_code char(12) not null unique,
  actual_controller text not null check (length(actual_controller) between 1 and 50),
  controller_id_no text,
  staff_count integer check (staff_count is null or staff_count >= 0),
  business_scope text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0
);

create table comp_shareholders (
  id bigserial primary key,
  comp_code char(12) not null,
  sort integer not null default 0,
  holder_name text not null check (length(holder_name) between 1 and 100),
  holder_type text not null check (holder_type in ('person', 'company')),
  -- Percent of the shares: the sum per customer stays at most 100 (checked under the row lock of comp_add_infos).
  ratio numeric(7, 4) not null check (ratio > 0 and ratio <= 100),
  contribution numeric(18, 2) check (contribution is null or contribution >= 0),
  created_at timestamptz not null default now(),
  created_by bigint
);
create index comp_shareholders_comp_idx on comp_shareholders (comp_code, sort);
create unique index comp_shareholders_name_key on comp_shareholders (comp_code, holder_name);

-- 企业关系维护: core enterprise – supplier / distributor, guarantor, with validity dates.
create table comp_relations (
  id bigserial primary key,
  biz_code char(12) not null unique,
  rel_type text not null check (rel_type in ('supplier', 'distributor', 'guarantor')),
  core_comp_code char(12) not null,
  rel_comp_code char(12) not null,
  start_date date not null,
  end_date date not null,
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check (core_comp_code <> rel_comp_code),
  check (end_date >= start_date)
);
create index comp_relations_core_idx on comp_relations (core_comp_code) where deleted_at is null;
create index comp_relations_rel_idx on comp_relations (rel_comp_code) where deleted_at is null;

-- The enterprise users authorised to operate a customer bank account (银行信息管理 / 企业用户).
create table comp_bank_account_users (
  account_biz_code char(12) not null,
  user_code char(12) not null,
  created_at timestamptz not null default now(),
  created_by bigint,
  primary key (account_biz_code, user_code)
);
create index comp_bank_account_users_user_idx on comp_bank_account_users (user_code);
