-- 回购 (buy-back under recourse, docs/buyback.md): when the debtor does not pay, a with-recourse
-- contract's outstanding receivable goes back to the seller. The 回购单 (workflow document
-- 'buyback') fixes the amount on its date; its approval closes the plan's open items into the
-- seller's buy-back receivable through a closing write-off (paids.kind = 'buyback', no incoming),
-- so every reader of the plan (itemAsOf, the ledger as of a date, overdue, the dashboard) sees the
-- items paid on the buy-back date. 回购款核销 (workflow document 'buybackSettle') spends incomings
-- on the buy-back receivable like a write-off.
create sequence code_seq_buyback;
create sequence code_seq_buyback_settle;

create table buybacks (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  buyback_date date not null,
  -- The quote on the buy-back date (the early-settlement quote of the plan): each part and the total.
  principal numeric(18, 2) not null check (principal >= 0),
  interest numeric(18, 2) not null check (interest >= 0),
  fee numeric(18, 2) not null check (fee >= 0),
  penalty numeric(18, 2) not null check (penalty >= 0),
  amount numeric(18, 2) not null check (amount > 0),
  -- What approved 回购款核销 have received of the amount.
  settled numeric(18, 2) not null default 0,
  -- The credit those settlements released (0.00 on a one-off line).
  released numeric(18, 2) not null default 0 check (released >= 0),
  -- The closing write-off its approval posted.
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
  check (settled >= 0 and settled <= amount),
  check ((red_state = 'reversed') = (red_at is not null)),
  check (red_state = 'none' or (state = 'approved' and settled = 0)),
  check (paid_id is null or state in ('pending', 'approved'))
);
-- One buy-back per contract at a time (any state but deleted or reversed): two raised at once
-- cannot both stand.
create unique index buybacks_contract_key on buybacks (contract_id) where deleted_at is null and red_state = 'none';
create index buybacks_list_idx on buybacks (updated_at desc) where deleted_at is null;
create index buybacks_org_idx on buybacks (org_id);
create trigger buybacks_stamp_org before insert on buybacks
  for each row execute function stamp_maker_org();

create table buyback_settlements (
  id bigserial primary key,
  biz_code char(12) not null unique,
  buyback_id bigint not null references buybacks (id),
  income_id bigint not null references incomes (id),
  settle_date date not null,
  amount numeric(18, 2) not null check (amount > 0),
  -- Of the amount, what repaid principal (the buy-back's interest, fee and penalty are paid first).
  principal numeric(18, 2) not null default 0 check (principal >= 0),
  released numeric(18, 2) not null default 0 check (released >= 0),
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
  deleted_at timestamptz,
  org_id bigint references depts (id),
  check (principal <= amount)
);
create index buyback_settlements_buyback_idx on buyback_settlements (buyback_id) where deleted_at is null;
create index buyback_settlements_income_idx on buyback_settlements (income_id) where deleted_at is null;
create index buyback_settlements_org_idx on buyback_settlements (org_id);
create trigger buyback_settlements_stamp_org before insert on buyback_settlements
  for each row execute function stamp_maker_org();

-- The closing write-off of a buy-back spends no incoming.
alter table paids alter column income_id drop not null;
alter table paids drop constraint paids_kind_check;
alter table paids add constraint paids_kind_check
  check (kind in ('normal', 'settlement', 'manual', 'buyback'));
alter table paids add constraint paids_buyback_income_check check ((kind = 'buyback') = (income_id is null));

-- Their vouchers, and the 回购通知书 as a print type of its own.
alter table vouchers drop constraint vouchers_doc_type_check;
alter table vouchers add constraint vouchers_doc_type_check
  check (doc_type in ('loan', 'loanRed', 'prepayment', 'income', 'paid', 'paidRed', 'accrual', 'deferral',
                      'buyback', 'buybackRed', 'buybackSettle'));
alter table print_templates drop constraint print_templates_biz_type_check;
alter table print_templates add constraint print_templates_biz_type_check
  check (biz_type in ('contract', 'handover', 'prepayment', 'loan', 'repayment', 'writeOff', 'credit', 'statement',
                      'classAdjust', 'buyback'));

-- Databases started before this migration: the roles the first start made get the new screen
-- like the others (the catalogue seeds the menu row itself at start-up).
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-buyback' from roles r
  where r.deleted_at is null and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-buyback:' || a.action from roles r
  join (values ('risk', 'audit'), ('risk', 'unAudit'), ('risk', 'print'), ('risk', 'circulate'),
               ('gm', 'audit'), ('gm', 'unAudit'), ('gm', 'print'), ('gm', 'circulate'),
               ('finance', 'add'), ('finance', 'save'), ('finance', 'delete'), ('finance', 'print'),
               ('finance', 'rushRed'), ('finance', 'export'), ('finance', 'circulate'))
       a (role, action) on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
