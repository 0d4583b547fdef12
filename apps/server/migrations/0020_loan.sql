-- 放款单 (disbursement, workflow document 'loan'): pays a contract's financing to the supplier
-- (docs/money-lifecycle.md). Its lines say, per up-front item of the contract, what prepayments had
-- received and what this disbursement deducts; financing − deducted = net paid out.
create sequence code_seq_loan;

create table loans (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  value_date date not null,
  pay_bank_biz_code char(12) not null,
  payee_bank_biz_code char(12) not null,
  serial_no text not null,
  -- The serial as compared: NFKC, no invisible characters, trimmed, upper case.
  serial_key text not null,
  financing_amount numeric(18, 2) not null check (financing_amount > 0),
  deducted_amount numeric(18, 2) not null check (deducted_amount >= 0),
  net_amount numeric(18, 2) not null check (net_amount >= 0),
  remark text,
  -- Approval re-based the plan to the value date (the items it replaced carry superseded_by = biz_code).
  rebased boolean not null default false,
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
  check (deducted_amount + net_amount = financing_amount),
  check ((red_state = 'reversed') = (red_at is not null)),
  check (red_state = 'none' or state = 'approved')
);
create index loans_contract_idx on loans (contract_id) where deleted_at is null;
create index loans_list_idx on loans (updated_at desc) where deleted_at is null;
-- One disbursement in force per contract: two approved at once cannot both stand.
create unique index loans_in_force_key on loans (contract_id)
  where deleted_at is null and state = 'approved' and red_state = 'none';
-- A bank serial is one payment from one of our accounts (a reversed 放款单 frees it: the same
-- payment is then entered again correctly).
create unique index loans_serial_key on loans (pay_bank_biz_code, serial_key)
  where deleted_at is null and red_state = 'none';

create table loan_lines (
  id bigserial primary key,
  loan_id bigint not null references loans (id),
  due_id bigint not null references contract_dues (id),
  kind text not null check (kind in ('margin', 'upfrontInterest', 'upfrontFee')),
  amount numeric(18, 2) not null check (amount > 0),
  prepaid numeric(18, 2) not null check (prepaid >= 0),
  deducted numeric(18, 2) not null check (deducted >= 0),
  sort integer not null default 0,
  check (prepaid + deducted = amount),
  unique (loan_id, due_id)
);

-- What of a due's received amount was deducted from a disbursement (the rest came by prepayments):
-- a due is collected once, so deducted ≤ received ≤ amount.
alter table contract_dues add column deducted_amount numeric(18, 2) not null default 0;
alter table contract_dues add constraint contract_dues_deducted_check
  check (deducted_amount >= 0 and deducted_amount <= received_amount);

-- The 放款通知书 is a print type of its own.
alter table print_templates drop constraint print_templates_biz_type_check;
alter table print_templates add constraint print_templates_biz_type_check
  check (biz_type in ('contract', 'handover', 'prepayment', 'loan', 'repayment', 'writeOff', 'credit'));

-- A contract's recorded disbursement matches a 放款单 in force (or none).
alter table contracts add column loan_biz_code char(12);
-- (Contracts disbursed by the one-click 放款 of earlier releases are loaned without one.)
alter table contracts add constraint contracts_loan_code_check
  check (loan_biz_code is null or loan_state = 'loaned');

-- Databases started before this migration: the roles the first start made get the new screen
-- like the others (the catalogue seeds the menu row itself at start-up).
insert into role_menus (role_id, menu_code)
  select r.id, m.code from roles r
  cross join (values ('ft-accounts'), ('ft-loan')) m (code)
  where r.deleted_at is null and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-loan:' || a.action from roles r
  join (values ('risk', 'audit'), ('risk', 'unAudit'), ('risk', 'print'), ('risk', 'circulate'),
               ('gm', 'audit'), ('gm', 'unAudit'), ('gm', 'print'), ('gm', 'circulate'),
               ('finance', 'add'), ('finance', 'save'), ('finance', 'delete'), ('finance', 'print'),
               ('finance', 'rushRed'), ('finance', 'circulate')) a (role, action) on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-contract-info:isLoan' from roles r where r.deleted_at is null and r.code = 'finance'
  on conflict do nothing;
