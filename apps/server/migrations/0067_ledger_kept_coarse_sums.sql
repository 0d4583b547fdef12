-- The kept 台账 sums at two coarser grains (issue 42 §5, docs/ledger.md "Kept by date"). The sums of
-- migration 0064 are per organisation and owner, the data scope's two columns, so a user who sees
-- everything read every owner's rows of the date: 36,000 rows at 1,000,000 contracts, ten times
-- those at 100,000 (the seed's owners grow with the book). Beside them the day-end now keeps the
-- sums per organisation (read by a user whose scope reaches whole organisations, and by the 机构
-- filter) and of the whole book (read by a user who sees everything): the organisations and the
-- states and classes, not the owners, bound what a call reads. The per-owner sums stay, for a
-- user's own rows outside the organisations they reach.

-- The same columns as ledger_kept_sums (migration 0064) less the owner, and less the organisation.
create table ledger_kept_org_sums (like ledger_kept_sums including defaults including constraints);
alter table ledger_kept_org_sums drop column created_by,
  add foreign key (as_of) references ledger_kept_dates (as_of) on delete cascade;
create index ledger_kept_org_sums_date_idx on ledger_kept_org_sums (as_of, org_id);

create table ledger_kept_book_sums (like ledger_kept_org_sums including defaults including constraints);
alter table ledger_kept_book_sums drop column org_id,
  add foreign key (as_of) references ledger_kept_dates (as_of) on delete cascade;
create index ledger_kept_book_sums_date_idx on ledger_kept_book_sums (as_of);

-- A user's own rows outside the organisations they reach: the per-owner sums by owner.
create index ledger_kept_sums_owner_idx on ledger_kept_sums (as_of, created_by);

-- The touches since the last day-end, read by every kept call (kept.ts touchedSince), by date. The
-- day-end deletes the touches it folds, and until a vacuum their dead rows stay in the table's
-- pages: after a bulk load (the seed, an import of a whole book) 617,715 of them at 100,000
-- contracts, 44 MB that a sequential scan read on every call (1.3 s under load, bench/README.md
-- "Ninth pass"). The index reads the live touches, and skips dead entries once a scan marked them.
create index ledger_touches_date_idx on ledger_touches (from_date, contract_id);

-- The dates kept before this migration: their coarser sums from their per-owner sums.
insert into ledger_kept_org_sums
  select as_of, org_id, ledger_state, asset_class, sum(contracts), sum(overdue_contracts), sum(receivables),
         sum(financing), sum(loan_net), sum(principal_open), sum(interest_open), sum(interest_not_due),
         sum(interest_off), sum(fee_open), sum(overdue_open), sum(overdue_penalty), sum(received), sum(reversed)
    from ledger_kept_sums group by as_of, org_id, ledger_state, asset_class;
insert into ledger_kept_book_sums
  select as_of, ledger_state, asset_class, sum(contracts), sum(overdue_contracts), sum(receivables),
         sum(financing), sum(loan_net), sum(principal_open), sum(interest_open), sum(interest_not_due),
         sum(interest_off), sum(fee_open), sum(overdue_open), sum(overdue_penalty), sum(received), sum(reversed)
    from ledger_kept_sums group by as_of, ledger_state, asset_class;
