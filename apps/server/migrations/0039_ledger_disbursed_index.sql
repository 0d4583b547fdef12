-- The ledger's overdue figures start from the disbursed contracts in force (docs/ledger.md "How it
-- is read"). Their ids came from a scan of the whole contracts table, whose rows are wide (the
-- rule snapshot, the balances, the names): 142 MB at 100,000 contracts, about 0.6 s of a ledger
-- page on a busy machine. This index holds the disbursed live contracts with the columns that
-- filter them (the 放款日, the start, the state and the data-scope owners), so the ids come from
-- an index-only scan of a few MB (about 20 ms).
create index contracts_disbursed_idx on contracts (id)
  include (loan_date, start_date, status, org_id, created_by)
  where deleted_at is null and loan_state = 'loaned';
