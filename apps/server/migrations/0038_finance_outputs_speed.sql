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
-- The planner's estimate of the new column (a boolean is 50 % true until analysed) decides whether
-- the ledger reads the few marked lines or scans them all.
analyze paid_lines;

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

-- 试算平衡 (docs/accounting.md "Trial balance"): each account's debit and credit per period, kept by
-- the posting of every voucher line in its transaction, so the trial balance of a period reads
-- these few rows (periods × accounts) instead of summing every line ever posted. Keyed by the name
-- the lines carry too (the balance shows it when the mapping no longer names the code); `lines`
-- counts them, and a row without lines is gone, as the account would be from a sum of the lines.
-- voucher.property.test.ts checks the rows against the lines summed, over random histories.
create table voucher_account_periods (
  period char(7) not null,
  account_code text not null,
  account_name text not null,
  debit numeric(18, 2) not null,
  credit numeric(18, 2) not null,
  lines integer not null check (lines > 0),
  primary key (period, account_code, account_name)
);

insert into voucher_account_periods (period, account_code, account_name, debit, credit, lines)
  select v.period, l.account_code, l.account_name, sum(l.debit), sum(l.credit), count(*)
    from voucher_lines l join vouchers v on v.id = l.voucher_id
   group by 1, 2, 3;

create function voucher_lines_roll() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update voucher_account_periods t
       set debit = t.debit - old.debit, credit = t.credit - old.credit, lines = t.lines - 1
      from vouchers v
     where v.id = old.voucher_id and t.period = v.period and t.account_code = old.account_code
       and t.account_name = old.account_name and t.lines > 1;
    if not found then
      delete from voucher_account_periods t using vouchers v
       where v.id = old.voucher_id and t.period = v.period and t.account_code = old.account_code
         and t.account_name = old.account_name;
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into voucher_account_periods as t (period, account_code, account_name, debit, credit, lines)
      select v.period, new.account_code, new.account_name, new.debit, new.credit, 1
        from vouchers v where v.id = new.voucher_id
      on conflict (period, account_code, account_name)
        do update set debit = t.debit + excluded.debit, credit = t.credit + excluded.credit, lines = t.lines + 1;
  end if;
  return null;
end $$;
create trigger voucher_lines_roll after insert or update or delete on voucher_lines
  for each row execute function voucher_lines_roll();
