-- 放款单冲红 (workflow document 'loanRed'): the reversal of an approved 放款单 goes to a checker
-- like every other money reversal (docs/money-lifecycle.md "冲红"). The entry holds the request and
-- its reason; its approval reverses the 放款单 (loans.red_state = 'reversed').
create sequence code_seq_loan_red;

create table loan_reds (
  id bigserial primary key,
  biz_code char(12) not null unique,
  loan_id bigint not null references loans (id),
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
  deleted_at timestamptz,
  org_id bigint references depts (id)
);
-- One live entry per 放款单: two requests made at once cannot both stand.
create unique index loan_reds_loan_key on loan_reds (loan_id) where deleted_at is null;
create index loan_reds_org_idx on loan_reds (org_id);
create trigger loan_reds_stamp_org before insert on loan_reds
  for each row execute function stamp_maker_org();
