-- The contract list's exact total (PROTOCOL.md §4) was a count over every matching index entry:
-- 48,000 of them per call at scale 1, most of a list call's cost (issue 14). Live contracts are
-- tallied here per owner (the data scope's column), 审核状态, 合同状态 and 放款状态, so a list
-- filtered by nothing else sums a few rows instead (listContracts).
--
-- Writers only insert signed deltas, never update a shared row: tallying adds no lock that two
-- transactions could wait on or deadlock over. compactContractTally folds the deltas into one row
-- per key from time to time.
create table contract_tally (
  created_by bigint,
  state text not null,
  status text not null,
  loan_state text not null,
  n integer not null
);
create index contract_tally_key_idx on contract_tally (state, status, loan_state, created_by) include (n);

-- Statement triggers over transition tables: a bulk insert adds one row per key, not per contract,
-- and an update that moves no contract between keys (money figures, stamps) adds nothing.
create function contract_tally_insert() returns trigger language plpgsql as $$
begin
  insert into contract_tally
    select created_by, state, status, loan_state, count(*) from new_rows
      where deleted_at is null group by 1, 2, 3, 4;
  return null;
end $$;

create function contract_tally_delete() returns trigger language plpgsql as $$
begin
  insert into contract_tally
    select created_by, state, status, loan_state, -count(*) from old_rows
      where deleted_at is null group by 1, 2, 3, 4;
  return null;
end $$;

create function contract_tally_update() returns trigger language plpgsql as $$
begin
  insert into contract_tally
    select created_by, state, status, loan_state, sum(n)::int from (
      select created_by, state, status, loan_state, -1 as n from old_rows where deleted_at is null
      union all
      select created_by, state, status, loan_state, 1 from new_rows where deleted_at is null
    ) moved group by 1, 2, 3, 4 having sum(n) <> 0;
  return null;
end $$;

create trigger contracts_tally_insert after insert on contracts
  referencing new table as new_rows for each statement execute function contract_tally_insert();
create trigger contracts_tally_delete after delete on contracts
  referencing old table as old_rows for each statement execute function contract_tally_delete();
create trigger contracts_tally_update after update on contracts
  referencing old table as old_rows new table as new_rows
  for each statement execute function contract_tally_update();

insert into contract_tally
  select created_by, state, status, loan_state, count(*) from contracts
    where deleted_at is null group by 1, 2, 3, 4;
