-- The ledger's totals and the 五级分类 of a past date at ten times the portfolio (issue 42 §5,
-- docs/ledger.md "How it is read"). Indexes only: no figure is kept or changed. At 100,000
-- contracts (1.2 million plan items) the three indexes build in about 10 s under load.
--
-- (`drop index if exists` first: a draft of this migration, named 0062_ledger_scale.sql, ran on
-- the kept benchmark databases with a narrower open-interest index.)

-- The interest split (interestSplit: 应收利息 / 未到期利息 / 表外利息) reads the items owing interest
-- that have started by the ledger's date. It read every live item of every contract (12 a contract
-- in the benchmark's portfolio) to keep about one; this index holds only the items owing interest,
-- by start date, with every column the split reads, so they come from an index-only range scan.
drop index if exists contract_plan_items_open_interest_idx;
create index contract_plan_items_open_interest_idx on contract_plan_items (start_date)
  include (contract_id, id, due_date, interest, interest_paid)
  where superseded_by is null and interest_paid < interest;

-- 已核销 (writtenOffBy) is asked for every row of the ledger: through paids_contract_idx it read
-- every write-off of every contract to find the few 核销坏账; this index holds those alone.
drop index if exists paids_bad_debt_idx;
create index paids_bad_debt_idx on paids (contract_id)
  where kind = 'badDebt' and deleted_at is null and state = 'approved';

-- The overdue figures' candidates are the items still owing, due before the date: the open-items
-- index (migration 0008) now also carries the columns they read (id, period, penalty), so they
-- come from an index-only scan. The planner cannot estimate "owing" (a disjunction of column
-- comparisons) and read the whole table for them: 1.2 million items for 13,000 candidates.
drop index contract_plan_items_open_due_idx;
create index contract_plan_items_open_due_idx on contract_plan_items (due_date)
  include (contract_id, principal, principal_paid, interest, interest_paid, fee, fee_paid, id, period, penalty)
  where superseded_by is null and (principal_paid < principal or interest_paid < interest or fee_paid < fee);
