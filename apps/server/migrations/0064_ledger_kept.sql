-- The 台账's figures kept by date (issue 42 §5, docs/ledger.md "Kept by date"). The ledger's totals
-- and the 五级分类 distribution of a date are sums over every contract of figures that depend on
-- the date, so computing them read one row per contract (17 s at 1,000,000 contracts). The
-- day-end of a date D keeps each contract's figures of D (and of the month end before D when that
-- is not kept yet), with their sums per organisation, owner, state and class, so that an
-- unfiltered or organisation-scoped call reads a few sums.
--
-- A kept row is exact until something touches its contract: every write that can change a
-- contract's figures of any date inserts a row into ledger_touches (statement triggers below, on
-- every table the figures read, so no code path can forget it). A reader takes the kept sums,
-- takes out the kept rows of the touched contracts and adds those contracts' figures computed
-- afresh, all in one snapshot; the next day-end folds the touches back into the kept rows.
-- Writers only insert: no row two postings could wait on.

create table ledger_kept_dates (
  as_of date primary key,
  built_at timestamptz not null default now()
);

-- One row per contract the ledger lists on as_of (approved, started by then, not deleted). No
-- foreign key to ledger_kept_dates: its check a row cost a tenth of the day-end's writing of a
-- date (100,000 rows); the day-end deletes the rows of the dates it drops.
create table ledger_kept (
  as_of date not null,
  contract_id bigint not null,
  org_id bigint,
  created_by bigint,
  ledger_state text not null,
  -- The class in force on as_of (contract_classes), for a 履约中 row; null: 未分类 or not 履约中.
  asset_class text,
  receivables numeric not null,
  financing numeric not null,
  loan_net numeric,
  principal_open numeric not null,
  interest_open numeric not null,
  interest_not_due numeric not null,
  interest_off numeric not null,
  fee_open numeric not null,
  overdue_days integer not null,
  overdue_open numeric not null,
  overdue_penalty numeric not null,
  -- 本期回款 and 本期冲红 of the period the ledger shows by default, from the first of as_of's month.
  received numeric not null,
  reversed numeric not null,
  primary key (as_of, contract_id)
);

-- Σ of ledger_kept per date and key: the data scope's columns (organisation, owner), the state and
-- the class. Rebuilt from ledger_kept by the day-end that writes the date's rows.
create table ledger_kept_sums (
  as_of date not null references ledger_kept_dates (as_of) on delete cascade,
  org_id bigint,
  created_by bigint,
  ledger_state text not null,
  asset_class text,
  contracts integer not null,
  overdue_contracts integer not null,
  receivables numeric not null,
  financing numeric not null,
  loan_net numeric not null,
  principal_open numeric not null,
  interest_open numeric not null,
  interest_not_due numeric not null,
  interest_off numeric not null,
  fee_open numeric not null,
  overdue_open numeric not null,
  overdue_penalty numeric not null,
  received numeric not null,
  reversed numeric not null
);
create index ledger_kept_sums_date_idx on ledger_kept_sums (as_of);

-- A contract whose figures of the dates from from_date on may differ from its kept rows.
create table ledger_touches (
  id bigserial primary key,
  contract_id bigint not null,
  from_date date not null
);

-- Recorded even while no date is kept: a day-end keeping the first date must find the touches of
-- the postings that ran beside it (a check "is any date kept?" would let those see none and record
-- nothing). A bulk load leaves a touch a contract, which the first day-end sweeps.
create function ledger_touch_rows() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into ledger_touches (contract_id, from_date)
      select distinct o.contract_id, '-infinity'::date from old_rows o where o.contract_id is not null;
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    insert into ledger_touches (contract_id, from_date)
      select distinct n.contract_id, '-infinity'::date from new_rows n where n.contract_id is not null;
  end if;
  return null;
end $$;

-- The contract row itself (its stored balances, 放款 state and date, organisation, owner, rule …).
create function ledger_touch_contracts() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into ledger_touches (contract_id, from_date)
      select o.id, '-infinity'::date from old_rows o;
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    insert into ledger_touches (contract_id, from_date)
      select n.id, '-infinity'::date from new_rows n;
  end if;
  return null;
end $$;

-- A reversal and a write-off's line belong to the write-off's contract.
create function ledger_touch_paid_rows() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into ledger_touches (contract_id, from_date)
      select distinct p.contract_id, '-infinity'::date from old_rows o join paids p on p.id = o.paid_id;
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    insert into ledger_touches (contract_id, from_date)
      select distinct p.contract_id, '-infinity'::date from new_rows n join paids p on p.id = n.paid_id;
  end if;
  return null;
end $$;

-- A class row of date B is the class in force from B on: the dates before B keep theirs.
create function ledger_touch_classes() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into ledger_touches (contract_id, from_date)
      select o.contract_id, min(o.business_date) from old_rows o group by o.contract_id;
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    insert into ledger_touches (contract_id, from_date)
      select n.contract_id, min(n.business_date) from new_rows n group by n.contract_id;
  end if;
  return null;
end $$;

-- Three statement triggers a table (insert, update, delete), each with its transition tables.
do $$
declare
  t record;
begin
  for t in select * from (values ('contracts', 'contracts', 'ledger_touch_contracts'),
                                 ('contract_plan_items', 'plan_items', 'ledger_touch_rows'),
                                 ('paids', 'paids', 'ledger_touch_rows'),
                                 ('paid_reds', 'paid_reds', 'ledger_touch_paid_rows'),
                                 ('paid_lines', 'paid_lines', 'ledger_touch_paid_rows'),
                                 ('contract_classes', 'contract_classes', 'ledger_touch_classes')) as v(tab, short, fn)
  loop
    execute format('create trigger %I after insert on %I referencing new table as new_rows
                      for each statement execute function %I()', t.short || '_ledger_ins', t.tab, t.fn);
    execute format('create trigger %I after update on %I referencing old table as old_rows new table as new_rows
                      for each statement execute function %I()', t.short || '_ledger_upd', t.tab, t.fn);
    execute format('create trigger %I after delete on %I referencing old table as old_rows
                      for each statement execute function %I()', t.short || '_ledger_del', t.tab, t.fn);
  end loop;
end $$;
