-- The ledger's overdue candidates (docs/ledger.md "How it is read"): a plan item whose principal was
-- paid after its due date may still owe penalty although nothing else is open, so the ledger must
-- find those items. Finding them meant reading every posted principal line with its write-off's date
-- (1.5 million lines at 100,000 contracts). Each line now carries the mark, derived from the
-- write-off's date and the item's due date by the triggers below, so a partial index finds the few.
--
-- Invariant, per line: principal_late = (component = 'PRINCIPAL' and paids.paid_date >
-- contract_plan_items.due_date) over its write-off and its item. ledger.test.ts checks it.
alter table paid_lines add column principal_late boolean not null default false;

update paid_lines l set principal_late = true
  from paids p, contract_plan_items i
 where p.id = l.paid_id and i.id = l.plan_item_id and l.component = 'PRINCIPAL' and p.paid_date > i.due_date;

create index paid_lines_principal_late_idx on paid_lines (plan_item_id) where principal_late;

create function paid_lines_mark_late() returns trigger language plpgsql as $$
begin
  new.principal_late := new.component = 'PRINCIPAL'
    and (select p.paid_date from paids p where p.id = new.paid_id)
      > (select i.due_date from contract_plan_items i where i.id = new.plan_item_id);
  return new;
end $$;
create trigger paid_lines_mark_late before insert or update of paid_id, plan_item_id, component on paid_lines
  for each row execute function paid_lines_mark_late();

-- A draft write-off re-dated, or an item re-dated, re-marks the lines it has.
create function paids_remark_late() returns trigger language plpgsql as $$
begin
  update paid_lines l set principal_late = l.component = 'PRINCIPAL' and new.paid_date > i.due_date
    from contract_plan_items i
   where l.paid_id = new.id and i.id = l.plan_item_id
     and l.principal_late <> (l.component = 'PRINCIPAL' and new.paid_date > i.due_date);
  return null;
end $$;
create trigger paids_remark_late after update of paid_date on paids
  for each row when (old.paid_date is distinct from new.paid_date) execute function paids_remark_late();

create function plan_items_remark_late() returns trigger language plpgsql as $$
begin
  update paid_lines l set principal_late = l.component = 'PRINCIPAL' and p.paid_date > new.due_date
    from paids p
   where l.plan_item_id = new.id and p.id = l.paid_id
     and l.principal_late <> (l.component = 'PRINCIPAL' and p.paid_date > new.due_date);
  return null;
end $$;
create trigger plan_items_remark_late after update of due_date on contract_plan_items
  for each row when (old.due_date is distinct from new.due_date) execute function plan_items_remark_late();
