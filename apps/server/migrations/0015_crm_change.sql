-- CRM change documents (workflow types compInfoChange / compManagerChange): 企业信息变更 and
-- 管理员变更, and the customer's history of values replaced by approved changes.
create sequence code_seq_comp_info_change;
create sequence code_seq_comp_manager_change;

create table comp_info_changes (
  id bigserial primary key,
  biz_code char(12) not null unique,
  comp_code char(12) not null,
  -- The customer's version and values when the change was drafted: approval applies only while the
  -- customer still has this version, and the view shows "before" from here after approval too.
  base_version integer not null,
  before_values jsonb not null,
  reason text check (reason is null or length(reason) <= 500),
  -- The proposed values (认证信息 and 其他信息).
  comp_name text not null check (length(comp_name) between 1 and 100),
  uscc_code char(18) not null,
  comp_type text not null,
  legal_person text not null,
  reg_capital numeric(18, 2) not null check (reg_capital >= 0),
  establish_date date,
  province_code char(6),
  city_code char(6),
  area_code char(6),
  address text,
  industry text,
  roles text[] not null default '{}',
  contact_name text,
  contact_phone text,
  contact_email text,
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
-- At most one open (draft or pending) information change per customer.
create unique index comp_info_changes_open_key on comp_info_changes (comp_code)
  where state in ('draft', 'pending') and deleted_at is null;
create index comp_info_changes_created_idx on comp_info_changes (created_at) where deleted_at is null;

create table comp_manager_changes (
  id bigserial primary key,
  biz_code char(12) not null unique,
  comp_code char(12) not null,
  -- The administrator when the change was drafted (null: the customer had none); approval applies
  -- only while it still is.
  old_user_code char(12),
  old_user_name text,
  old_mobile text,
  kind text not null check (kind in ('existing', 'new')),
  -- existing: the chosen enterprise user; new: filled in on approval with the created user.
  new_user_code char(12),
  new_user_name text not null check (length(new_user_name) between 1 and 50),
  new_mobile text not null check (new_mobile ~ '^1[3-9][0-9]{9}$'),
  new_id_card_no text check (new_id_card_no is null or new_id_card_no ~ '^[0-9]{17}[0-9X]$'),
  reason text not null check (length(reason) between 1 and 500),
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
  check (kind = 'new' or new_user_code is not null),
  check (kind = 'existing' or new_id_card_no is not null),
  check (state <> 'approved' or new_user_code is not null)
);
create index comp_manager_changes_comp_idx on comp_manager_changes (comp_code, created_at)
  where deleted_at is null;

-- What each approved change replaced: one row per changed field, with the old and new value.
create table company_history (
  id bigserial primary key,
  comp_code char(12) not null,
  biz_code char(12) not null,
  change_type text not null check (change_type in ('info', 'manager')),
  field text not null,
  old_value text,
  new_value text,
  changed_by bigint,
  changed_at timestamptz not null default now()
);
create index company_history_comp_idx on company_history (comp_code, changed_at);
