-- Interest rules (计息规则) and contracts' own business configs (rows with cont_biz_code).
create sequence code_seq_rule;

create table interest_rules (
  id bigserial primary key,
  biz_code char(12) not null unique,
  name text not null,
  cont_biz_code char(12),
  -- The engine's rule, validated by the shared zod schema; contracts snapshot it at approval.
  calc jsonb not null,
  annual_rate numeric(12, 8) not null check (annual_rate >= 0),
  method text not null,
  state text not null default 'enabled' check (state in ('enabled', 'disabled')),
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
-- A contract has at most one business config.
create unique index interest_rules_contract_key on interest_rules (cont_biz_code) where deleted_at is null and cont_biz_code is not null;
create index interest_rules_name_idx on interest_rules (name) where deleted_at is null;
