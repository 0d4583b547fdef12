-- Print templates (打印模板): HTML bodies with placeholders, per business type and core enterprise.
create sequence code_seq_print;

create table print_templates (
  id bigserial primary key,
  biz_code char(12) not null unique,
  name text not null,
  biz_type text not null check (biz_type in ('contract', 'handover', 'prepayment', 'repayment', 'writeOff', 'credit')),
  -- A template dedicated to one core enterprise's documents; null serves every document of the type.
  core_comp_code char(12),
  -- Sanitised HTML with placeholders; sanitised again after rendering.
  content text not null check (length(content) <= 200000),
  state text not null default 'disabled' check (state in ('enabled', 'disabled')),
  remark text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
-- What prints is never ambiguous: one enabled template per type and core enterprise.
create unique index print_templates_enabled_key on print_templates (biz_type, coalesce(core_comp_code, ''))
  where state = 'enabled' and deleted_at is null;
create index print_templates_type_idx on print_templates (biz_type, updated_at) where deleted_at is null;
