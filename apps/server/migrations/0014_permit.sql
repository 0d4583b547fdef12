-- Admission (准入, SPEC §7.14): a customer enterprise (cust) or one of its users (user) admitted
-- into an area (ec 凭证, dw 山高E融, fc 银企链). One record per (area, subject), never deleted: a
-- disabled admission is reopened, not made again. Roles are set only while open; every change is
-- a row of permit_role_changes (企业角色变更).
create sequence code_seq_permit;
create sequence code_seq_permit_role_chg;

create table permits (
  id bigserial primary key,
  biz_code char(12) not null unique,
  subject text not null check (subject in ('cust', 'user')),
  area text not null check (area in ('ec', 'dw', 'fc')),
  -- The customer; for a user admission, the user's enterprise.
  comp_code char(12) not null,
  user_code char(12),
  state text not null default 'saved' check (state in ('saved', 'open', 'disabled')),
  roles text[] not null default '{}' check (cardinality(roles) between 1 and 10),
  remark text check (remark is null or length(remark) <= 500),
  opened_at timestamptz,
  opened_by bigint,
  disabled_at timestamptz,
  disabled_by bigint,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  check ((subject = 'cust') = (user_code is null)),
  -- Roles from the area's dictionary (packages/contract/src/permit.ts CUST_ROLE_LABELS,
  -- USER_ROLE_LABELS); a new role needs a migration as well as the dictionary entry.
  constraint permits_roles_dict check (
    case
      when subject = 'user' then roles <@ array['operator', 'reviewer', 'approver', 'admin']
      when area = 'ec' then roles <@ array['issuer', 'holder', 'funder']
      when area = 'dw' then roles <@ array['financier', 'core', 'guarantor']
      else roles <@ array['core', 'member', 'bank']
    end
  ),
  -- Opened once means it has the stamp; a saved one never had it.
  check ((state = 'saved') = (opened_at is null))
);
create unique index permits_cust_key on permits (area, comp_code) where subject = 'cust';
create unique index permits_user_key on permits (area, user_code) where subject = 'user';
create index permits_list_idx on permits (subject, area, created_at);
create index permits_comp_idx on permits (comp_code);

create table permit_role_changes (
  id bigserial primary key,
  biz_code char(12) not null unique,
  permit_id bigint not null references permits (id),
  kind text not null check (kind in ('open', 'change')),
  roles_before text[] not null,
  roles_after text[] not null check (cardinality(roles_after) between 1 and 10),
  reason text check (reason is null or length(reason) <= 200),
  created_at timestamptz not null default now(),
  created_by bigint,
  created_by_name text
);
create index permit_role_changes_permit_idx on permit_role_changes (permit_id, id);
