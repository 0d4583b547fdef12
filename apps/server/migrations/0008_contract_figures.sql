-- Open balances per contract, kept by the database itself, so that portfolio figures read one
-- row per contract instead of every plan item (the dashboard over 1,200,000 items, issue 13).
-- Invariant, per contract: principal_open = Σ (principal − principal_paid) over its live items
-- (superseded_by is null), likewise interest and fee; grace_days = its rule snapshot's graceDays.
alter table contracts
  add column principal_open numeric(18, 2) not null default 0,
  add column interest_open numeric(18, 2) not null default 0,
  add column fee_open numeric(18, 2) not null default 0,
  add column grace_days integer not null default 0;

update contracts c set
  principal_open = s.p, interest_open = s.i, fee_open = s.f
  from (select contract_id, sum(principal - principal_paid) as p, sum(interest - interest_paid) as i,
               sum(fee - fee_paid) as f
          from contract_plan_items where superseded_by is null group by contract_id) s
 where s.contract_id = c.id;
update contracts set grace_days = coalesce((rule_snapshot ->> 'graceDays')::int, 0) where rule_snapshot is not null;

create function contract_plan_items_roll() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.superseded_by is null then
    update contracts set principal_open = principal_open - (old.principal - old.principal_paid),
                         interest_open = interest_open - (old.interest - old.interest_paid),
                         fee_open = fee_open - (old.fee - old.fee_paid)
     where id = old.contract_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.superseded_by is null then
    update contracts set principal_open = principal_open + (new.principal - new.principal_paid),
                         interest_open = interest_open + (new.interest - new.interest_paid),
                         fee_open = fee_open + (new.fee - new.fee_paid)
     where id = new.contract_id;
  end if;
  return null;
end $$;
create trigger contract_plan_items_roll after insert or update or delete on contract_plan_items
  for each row execute function contract_plan_items_roll();

create function contracts_grace_days() returns trigger language plpgsql as $$
begin
  new.grace_days := coalesce((new.rule_snapshot ->> 'graceDays')::int, 0);
  return new;
end $$;
create trigger contracts_grace_days before insert or update of rule_snapshot on contracts
  for each row execute function contracts_grace_days();

-- Items still owed something, by due date (windows, overdue, aging read only these).
create index contract_plan_items_open_due_idx on contract_plan_items (due_date)
  include (contract_id, principal, principal_paid, interest, interest_paid, fee, fee_paid)
  where superseded_by is null and (principal_paid < principal or interest_paid < interest or fee_paid < fee);
-- Live contracts with their open balances (the portfolio totals).
create index contracts_effective_idx on contracts (id)
  include (created_by, grace_days, principal_open, interest_open, fee_open)
  where deleted_at is null and status = 'effective';
create index contracts_start_idx on contracts (start_date) include (financing_amount, created_by)
  where deleted_at is null and status <> 'none';
