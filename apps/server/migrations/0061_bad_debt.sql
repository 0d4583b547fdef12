-- 核销坏账 (bad-debt write-off, issue 44 §2, docs/accounting.md "Bad-debt write-off"): a contract
-- classified 损失 is written off by a document of its own (workflow document 'badDebt', four
-- eyes). Its approval closes the plan's open items through a closing write-off (paids.kind =
-- 'badDebt', no incoming), marks the contract 已核销 (contracts.status = 'writtenOff') and posts the
-- voucher 坏账准备 / 信用减值损失 against 应收保理款.
create sequence code_seq_bad_debt;

create table bad_debts (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  write_off_date date not null,
  -- What the plan still owes on the date (the closing quote): each part and the total.
  principal numeric(18, 2) not null check (principal > 0),
  interest numeric(18, 2) not null check (interest >= 0),
  fee numeric(18, 2) not null check (fee >= 0),
  penalty numeric(18, 2) not null check (penalty >= 0),
  amount numeric(18, 2) not null check (amount > 0),
  -- Set by the approval: the 坏账准备 used, the shortfall charged to 信用减值损失 (their sum is the
  -- principal), and the seller's credit released.
  reserve_used numeric(18, 2) not null default 0 check (reserve_used >= 0),
  loss_charged numeric(18, 2) not null default 0 check (loss_charged >= 0),
  released numeric(18, 2) not null default 0 check (released >= 0),
  paid_id bigint references paids (id),
  remark text,
  red_state text not null default 'none' check (red_state in ('none', 'reversed')),
  red_reason text,
  red_at timestamptz,
  red_by bigint,
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
  org_id bigint references depts (id),
  check (principal + interest + fee + penalty = amount),
  check ((red_state = 'reversed') = (red_at is not null)),
  check (red_state = 'none' or state = 'approved'),
  check (paid_id is null or state in ('pending', 'approved')),
  check (paid_id is null or reserve_used + loss_charged = principal)
);
-- One write-off per contract at a time (any state but deleted or reversed): two raised at once
-- cannot both stand.
create unique index bad_debts_contract_key on bad_debts (contract_id) where deleted_at is null and red_state = 'none';
create index bad_debts_list_idx on bad_debts (updated_at desc) where deleted_at is null;
create index bad_debts_org_idx on bad_debts (org_id);
create trigger bad_debts_stamp_org before insert on bad_debts
  for each row execute function stamp_maker_org();

-- A written-off contract: neither in force nor settled.
alter table contracts drop constraint contracts_status_check;
alter table contracts add constraint contracts_status_check
  check (status in ('none', 'effective', 'settled', 'writtenOff'));

-- The closing write-off of a 核销坏账 spends no incoming either (the union of 0059's).
alter table paids drop constraint paids_kind_check;
alter table paids add constraint paids_kind_check
  check (kind in ('normal', 'settlement', 'manual', 'buyback', 'opening', 'badDebt'));
alter table paids drop constraint paids_income_check;
alter table paids add constraint paids_income_check
  check ((income_id is null) = (kind in ('buyback', 'opening', 'badDebt')));

-- Its voucher and the mirror of its 冲红 (the union of 0060's).
alter table vouchers drop constraint vouchers_doc_type_check;
alter table vouchers add constraint vouchers_doc_type_check
  check (doc_type in ('loan', 'loanRed', 'prepayment', 'income', 'paid', 'paidRed', 'accrual', 'deferral',
                      'buyback', 'buybackRed', 'buybackSettle', 'opening', 'provision', 'badDebt', 'badDebtRed'));

-- Databases started before this migration: the roles the first start made get the new screen
-- like the others (the catalogue seeds the menu row itself at start-up), the same grants a fresh
-- database's seed gives them (workflow/seed.ts: a document's screen takes each role's actions;
-- permission/demo.ts: finance). 财务 and 业务经理 make, 风控 and 总经理 check.
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-bad-debt' from roles r
  where r.deleted_at is null and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-bad-debt:' || a.action from roles r
  join (values ('biz-manager', 'add'), ('biz-manager', 'save'), ('biz-manager', 'delete'),
               ('biz-manager', 'circulate'),
               ('risk', 'audit'), ('risk', 'unAudit'), ('risk', 'circulate'),
               ('gm', 'audit'), ('gm', 'unAudit'), ('gm', 'circulate'),
               ('finance', 'add'), ('finance', 'save'), ('finance', 'delete'),
               ('finance', 'rushRed'), ('finance', 'export'), ('finance', 'circulate'))
       a (role, action) on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
