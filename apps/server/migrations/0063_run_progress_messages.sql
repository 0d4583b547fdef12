-- Progress of a day-end (日终) or a job run while it runs (issue 42 §5, docs/business-date.md
-- "Progress"). The work is one transaction, so nothing it writes is seen before it commits; its
-- progress is written beside it, on another connection, into the run's own row (committed at
-- once, seen by every server): `progress` is the phase and how many contracts of how many are
-- done and rows written, `progress_at` the last time the running server wrote it (also every
-- few seconds while a long statement runs). A run row still 运行中 whose `progress_at` has gone
-- quiet belongs to a server that stopped mid-run (its transaction rolled back): it is shown as
-- 中断 and no longer blocks the next run.
alter table day_end_runs add column if not exists progress jsonb, add column if not exists progress_at timestamptz;
alter table job_runs add column if not exists progress jsonb, add column if not exists progress_at timestamptz;

-- The day-end's reminders' messages (migration 0028) once a statement instead of once a reminder:
-- the day-end inserts its reminders five thousand a statement, and the trigger's insert a row
-- made that phase a statement a reminder again (bench/README.md "Ten times the portfolio"). The
-- same message for each reminder added, in the reminders' order.
drop trigger if exists reminders_messages on reminders;
create or replace function messages_reminder() returns trigger language plpgsql as $$
begin
  insert into messages (user_id, kind, doc_type, doc_code, subject, detail)
  select a.user_id, a.kind, 'contract', c.biz_code, c.contract_no,
         '第' || i.period || '期，还款日 ' || to_char(i.due_date, 'YYYY-MM-DD')
    from added a join contracts c on c.id = a.contract_id join contract_plan_items i on i.id = a.plan_item_id
   order by a.id;
  return null;
end $$;
create trigger reminders_messages after insert on reminders
  referencing new table as added
  for each statement execute function messages_reminder();
