-- 逾期明细 shows what of an overdue item is owing, not only its principal: an item whose principal
-- is paid but whose interest, fee or penalty is not is overdue too, and showed 逾期本金 0.00 with
-- nothing beside it (docs/business-date.md "The day-end"). Rows written before this migration
-- did not record the two figures: they stay null and read "—" (running that date's day-end
-- again records them).
alter table day_end_items
  add column if not exists interest_overdue numeric(18, 2) check (interest_overdue >= 0),
  add column if not exists fee_overdue numeric(18, 2) check (fee_overdue >= 0);
