-- A user who sees every contract summed the tally (0016) over one row per owner: some 1,800 rows
-- per key at scale 1, two thirds of the list statement's time (issue 14). The same deltas are
-- now also kept without the owner, so that sum reads a few rows. Compacted with the tally
-- (compactContractTally); the two always hold the same totals.
create table contract_tally_all (
  state text not null,
  status text not null,
  loan_state text not null,
  n integer not null
);
create index contract_tally_all_key_idx on contract_tally_all (state, status, loan_state) include (n);

create or replace function contract_tally_insert() returns trigger language plpgsql as $$
begin
  with moved as (
    select created_by, state, status, loan_state, count(*)::int as n from new_rows
      where deleted_at is null group by 1, 2, 3, 4
  ), per_owner as (
    insert into contract_tally select * from moved
  )
  insert into contract_tally_all select state, status, loan_state, sum(n)::int from moved group by 1, 2, 3;
  return null;
end $$;

create or replace function contract_tally_delete() returns trigger language plpgsql as $$
begin
  with moved as (
    select created_by, state, status, loan_state, -count(*)::int as n from old_rows
      where deleted_at is null group by 1, 2, 3, 4
  ), per_owner as (
    insert into contract_tally select * from moved
  )
  insert into contract_tally_all select state, status, loan_state, sum(n)::int from moved group by 1, 2, 3;
  return null;
end $$;

create or replace function contract_tally_update() returns trigger language plpgsql as $$
begin
  with moved as (
    select created_by, state, status, loan_state, sum(n)::int as n from (
      select created_by, state, status, loan_state, -1 as n from old_rows where deleted_at is null
      union all
      select created_by, state, status, loan_state, 1 from new_rows where deleted_at is null
    ) d group by 1, 2, 3, 4 having sum(n) <> 0
  ), per_owner as (
    insert into contract_tally select * from moved
  )
  -- An owner change moves a count between owners and nets to nothing here.
  insert into contract_tally_all
    select state, status, loan_state, sum(n)::int from moved group by 1, 2, 3 having sum(n) <> 0;
  return null;
end $$;

insert into contract_tally_all
  select state, status, loan_state, sum(n)::int from contract_tally group by 1, 2, 3 having sum(n) <> 0;
