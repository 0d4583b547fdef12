-- 逾期明细 shows the penalty still owed on the business date beside the penalty accrued through it:
-- its 逾期本金, 逾期利息 and 逾期费用 are what is owing, and the owing penalty is what the 台账,
-- the dashboard and the reminders show (docs/business-date.md "The day-end"). Rows written before
-- this migration did not record it: it stays null and reads "—" (running that date's day-end
-- again records it).
alter table day_end_items
  add column if not exists penalty_owed numeric(18, 2) check (penalty_owed >= 0);
