-- The contract list's deep pages filtered by 合同状态 (issue 42 §5, bench/README.md "Ten times the
-- portfolio"). A page reached by OFFSET walks the sort's covering index (migration 0010) past every
-- entry before it, and with a 合同状态 filter also past every entry of another status the filter
-- rejects: at 1,000,000 contracts page 5,000 of 生效 contracts read 208,000 entries to keep 100,000.
-- These twins of the four sort indexes lead with the status, so a filter on it (with or without
-- 审核状态, which is read from the entry) walks only that status's entries. The list without a
-- status filter keeps using the indexes of migration 0010. The columns a write-off's approval
-- changes on the contract row (occupied_amount) are in none of them: its update may stay HOT.
create index contracts_page_status_updated_idx on contracts (status, updated_at desc, id desc)
  include (state, loan_state, created_by) where deleted_at is null;
create index contracts_page_status_amount_idx on contracts (status, financing_amount desc, updated_at desc, id desc)
  include (state, loan_state, created_by) where deleted_at is null;
create index contracts_page_status_start_idx on contracts (status, start_date desc, updated_at desc, id desc)
  include (state, loan_state, created_by) where deleted_at is null;
create index contracts_page_status_maturity_idx on contracts (status, maturity_date desc, updated_at desc, id desc)
  include (state, loan_state, created_by) where deleted_at is null;
