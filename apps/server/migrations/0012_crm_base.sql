-- The customer enterprise's own people (企业用户) and departments (组织架构): shared by the CRM
-- screens, the administrator change and admission (准入).
create sequence code_seq_comp_user;
create sequence code_seq_comp_dept;

create table comp_depts (
  id bigserial primary key,
  dept_code char(12) not null unique,
  comp_code char(12) not null,
  parent_dept_code char(12),
  dept_name text not null check (length(dept_name) between 1 and 50),
  sort integer not null default 0,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check (parent_dept_code is null or parent_dept_code <> dept_code)
);
create unique index comp_depts_name_key on comp_depts (comp_code, coalesce(parent_dept_code, ''), dept_name)
  where deleted_at is null;

create table comp_users (
  id bigserial primary key,
  user_code char(12) not null unique,
  comp_code char(12) not null,
  -- Real name of the person.
  user_name text not null check (length(user_name) between 1 and 50),
  mobile text not null check (mobile ~ '^1[3-9][0-9]{9}$'),
  id_card_no text check (id_card_no is null or id_card_no ~ '^[0-9]{17}[0-9X]$'),
  email text,
  dept_code char(12),
  post text,
  -- The enterprise's administrator (管理员): at most one live one per enterprise.
  is_manager boolean not null default false,
  -- Registration check (企业用户审核, /crm/frim/frimcheck).
  reg_state text not null default 'pending' check (reg_state in ('pending', 'approved', 'rejected')),
  reg_comment text,
  state text not null default 'enabled' check (state in ('enabled', 'disabled')),
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
create unique index comp_users_mobile_key on comp_users (mobile) where deleted_at is null;
create unique index comp_users_manager_key on comp_users (comp_code) where is_manager and deleted_at is null;
create index comp_users_comp_idx on comp_users (comp_code, created_at) where deleted_at is null;
