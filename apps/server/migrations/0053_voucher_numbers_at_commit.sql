-- 凭证号 at commit (docs/accounting.md "Numbers"; issue 42 §3). A posting inserts its voucher without
-- a number; a deferred trigger gives it the period's next number, and adds its lines to the
-- period's account totals, when the posting's transaction commits. The period's counter row and
-- the account totals' rows are then locked only from that moment to the end of the commit,
-- instead of from the posting through the rest of the approval: money approvals no longer wait
-- on each other's whole transaction. No transaction commits a voucher without its number, so no
-- screen or export ever sees one.

alter table vouchers alter column no drop not null;

-- A line rolls into the totals at once only when its voucher already has its number (a voucher
-- loaded with one, or a line changed later); a numbered-at-commit voucher's lines are rolled by
-- vouchers_number_at_commit below, all at once, in account order.
create or replace function voucher_lines_roll() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update voucher_account_periods t
       set debit = t.debit - old.debit, credit = t.credit - old.credit, lines = t.lines - 1
      from vouchers v
     where v.id = old.voucher_id and v.no is not null and t.period = v.period
       and t.account_code = old.account_code and t.account_name = old.account_name and t.lines > 1;
    if not found then
      delete from voucher_account_periods t using vouchers v
       where v.id = old.voucher_id and v.no is not null and t.period = v.period
         and t.account_code = old.account_code and t.account_name = old.account_name;
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into voucher_account_periods as t (period, account_code, account_name, debit, credit, lines)
      select v.period, new.account_code, new.account_name, new.debit, new.credit, 1
        from vouchers v where v.id = new.voucher_id and v.no is not null
      on conflict (period, account_code, account_name)
        do update set debit = t.debit + excluded.debit, credit = t.credit + excluded.credit, lines = t.lines + 1;
  end if;
  return null;
end $$;

create function vouchers_number_at_commit() returns trigger language plpgsql as $$
declare
  n integer;
begin
  -- The period's counter row stays locked until this commit ends: the next number of the period
  -- waits only for that instant, and a rolled-back posting never took one (no gaps).
  insert into voucher_periods as p (period, last_no) values (new.period, 1)
    on conflict (period) do update set last_no = p.last_no + 1
    returning last_no into n;
  update vouchers set no = n where id = new.id;
  -- Its lines into the period's account totals, one row per account, in the accounts' order (two
  -- commits lock the rows they share in the same order).
  insert into voucher_account_periods as t (period, account_code, account_name, debit, credit, lines)
    select new.period, l.account_code, l.account_name, sum(l.debit), sum(l.credit), count(*)
      from voucher_lines l
     where l.voucher_id = new.id
     group by l.account_code, l.account_name
     order by l.account_code, l.account_name
    on conflict (period, account_code, account_name)
      do update set debit = t.debit + excluded.debit, credit = t.credit + excluded.credit,
                    lines = t.lines + excluded.lines;
  return null;
end $$;

create constraint trigger vouchers_number_at_commit after insert on vouchers
  deferrable initially deferred
  for each row when (new.no is null) execute function vouchers_number_at_commit();
