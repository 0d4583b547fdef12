-- The ledger reads a past date as the paid columns of the plan items corrected by the write-offs
-- and reversals dated after it (docs/ledger.md "As posted on a date"): these find them without a scan.
create index paids_approved_date_idx on paids (paid_date) where deleted_at is null and state = 'approved';
create index paid_reds_approved_date_idx on paid_reds (red_date) where deleted_at is null and state = 'approved';
