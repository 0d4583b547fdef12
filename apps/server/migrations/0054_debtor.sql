-- Debtors (债务人) as parties (docs/credit.md "Debtors"). The free-text names stay as they were
-- typed (history, prints); the customer code beside each name is what links the row to the
-- debtor. Existing rows are linked where the name is exactly the name of one live enterprise
-- customer in the buyer or core role; the others are left unlinked and listed on 债务人待匹配
-- for a person to resolve. No posted figure changes.
update credit_ft_items t set debtor_code = m.comp_code
  from (select comp_name, min(comp_code) as comp_code
          from companies
         where deleted_at is null and roles && array['buyer', 'core']::text[]
         group by comp_name
        having count(*) = 1) m
 where t.debtor_code is null and t.debtor_name = m.comp_name;
update credit_receivables t set debtor_code = m.comp_code
  from (select comp_name, min(comp_code) as comp_code
          from companies
         where deleted_at is null and roles && array['buyer', 'core']::text[]
         group by comp_name
        having count(*) = 1) m
 where t.debtor_code is null and t.debtor_name = m.comp_name;
update credit_lines t set debtor_code = m.comp_code
  from (select comp_name, min(comp_code) as comp_code
          from companies
         where deleted_at is null and roles && array['buyer', 'core']::text[]
         group by comp_name
        having count(*) = 1) m
 where t.kind = 'debtor' and t.debtor_code is null and t.debtor_name = m.comp_name;
update contract_receivables t set debtor_code = m.comp_code
  from (select comp_name, min(comp_code) as comp_code
          from companies
         where deleted_at is null and roles && array['buyer', 'core']::text[]
         group by comp_name
        having count(*) = 1) m
 where t.debtor_code is null and t.debtor_name = m.comp_name;
update contract_payers t set payer_code = m.comp_code
  from (select comp_name, min(comp_code) as comp_code
          from companies
         where deleted_at is null and roles && array['buyer', 'core']::text[]
         group by comp_name
        having count(*) = 1) m
 where t.payer_code is null and t.payer_name = m.comp_name;

create index contract_receivables_debtor_idx on contract_receivables (debtor_code) where debtor_code is not null;
create index contract_receivables_unmatched_idx on contract_receivables (debtor_name) where debtor_code is null;
create index contract_payers_unmatched_idx on contract_payers (payer_name) where payer_code is null;

-- A debtor line (债务人额度): how much of the receivables on one debtor, across all sellers, the
-- effective contracts may hold. A debtor without an active line is not limited. `limit_amount`
-- and `state` change only when a second person approves the proposal kept in pending_*; the
-- occupied figure is the sum of the line's movements in debtor_ledger and never exceeds the limit.
create sequence code_seq_debtor_line;
create table debtor_lines (
  id bigserial primary key,
  biz_code char(12) not null unique,
  debtor_code char(12) not null,
  debtor_name text not null,
  state text not null default 'pending' check (state in ('pending', 'active')),
  limit_amount numeric(18, 2) not null default 0 check (limit_amount >= 0),
  occupied_amount numeric(18, 2) not null default 0,
  pending_limit numeric(18, 2) check (pending_limit >= 0),
  pending_remark text,
  pending_by bigint,
  pending_by_name text,
  pending_at timestamptz,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  check (occupied_amount >= 0 and occupied_amount <= limit_amount),
  check ((pending_limit is null) = (pending_by is null))
);
create unique index debtor_lines_debtor_key on debtor_lines (debtor_code);

-- One row per movement; per line occupied = Σ occupy − Σ release, and per contract and line what
-- the contract holds is the same sum over its rows. 'limit' rows record an approved limit.
create table debtor_ledger (
  id bigserial primary key,
  line_id bigint not null references debtor_lines (id),
  movement text not null check (movement in ('occupy', 'release', 'limit')),
  amount numeric(18, 2) not null,
  limit_after numeric(18, 2) not null,
  occupied_after numeric(18, 2) not null,
  contract_id bigint references contracts (id),
  doc_type text not null,
  doc_code text not null,
  reason text,
  biz_date date not null,
  actor_id bigint,
  actor_name text,
  at timestamptz not null default now(),
  check (amount >= 0 or movement = 'limit'),
  check ((movement = 'limit') = (contract_id is null))
);
create index debtor_ledger_line_idx on debtor_ledger (line_id, id);
create index debtor_ledger_contract_idx on debtor_ledger (contract_id, line_id) where contract_id is not null;
