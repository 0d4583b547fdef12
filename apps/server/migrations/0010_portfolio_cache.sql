-- Portfolio figures are aggregates over every open plan item (issue 13: p95 under 200 ms at
-- 1,200,000 items). The dashboard caches them per data scope and business date, and this epoch
-- tells it when to recompute: any statement that writes contracts, plan items, incomings or
-- write-offs bumps it (a sequence: no row lock, no contention between writers).
create sequence portfolio_epoch;

create function bump_portfolio_epoch() returns trigger language plpgsql as $$
begin
  perform nextval('portfolio_epoch');
  return null;
end $$;

create trigger contracts_portfolio_epoch after insert or update or delete on contracts
  for each statement execute function bump_portfolio_epoch();
create trigger contract_plan_items_portfolio_epoch after insert or update or delete on contract_plan_items
  for each statement execute function bump_portfolio_epoch();
create trigger incomes_portfolio_epoch after insert or update or delete on incomes
  for each statement execute function bump_portfolio_epoch();
create trigger paids_portfolio_epoch after insert or update or delete on paids
  for each statement execute function bump_portfolio_epoch();

-- The contract list's sorts, each with the list's tie-breakers, covering the usual filters and the
-- data-scope owner: a page's ids are found by an index-only scan (page 500 as well as page 1),
-- then only those rows are read (listContracts).
create index contracts_page_updated_idx on contracts (updated_at desc, id desc)
  include (state, status, loan_state, created_by) where deleted_at is null;
create index contracts_page_amount_idx on contracts (financing_amount desc, updated_at desc, id desc)
  include (state, status, loan_state, created_by) where deleted_at is null;
create index contracts_page_start_idx on contracts (start_date desc, updated_at desc, id desc)
  include (state, status, loan_state, created_by) where deleted_at is null;
create index contracts_page_maturity_idx on contracts (maturity_date desc, updated_at desc, id desc)
  include (state, status, loan_state, created_by) where deleted_at is null;
create index contracts_state_status_idx on contracts (state, status) include (created_by) where deleted_at is null;
