-- Authorization by data (issue 25): every business document carries the maker's organisation, and
-- customers with their bank accounts the managing organisation, so that a data scope of 本组织及下级
-- narrows rows by where they were made rather than by where their maker works today.
--
-- The column is stamped by the database on insert (from the creating user's organisation, or for a
-- customer's bank account from the customer), so no insert site can forget it. Existing rows are
-- backfilled the same way. Rows made by the system (demo, imports without a user) have none and are
-- seen only by users whose scope is 全部数据.

create function stamp_maker_org() returns trigger language plpgsql as $$
begin
  if new.org_id is null and new.created_by is not null then
    new.org_id := (select dept_id from users where id = new.created_by);
  end if;
  return new;
end $$;

-- A customer's account belongs to the customer's managing organisation; our own accounts to the
-- organisation that entered them.
create function stamp_bank_account_org() returns trigger language plpgsql as $$
begin
  if new.org_id is null and new.owner_type = 'customer' then
    new.org_id := (select org_id from companies where comp_code = new.owner_code and deleted_at is null);
  end if;
  if new.org_id is null and new.created_by is not null then
    new.org_id := (select dept_id from users where id = new.created_by);
  end if;
  return new;
end $$;

do $$
declare
  t text;
begin
  foreach t in array array['contracts', 'contract_changes', 'handovers', 'loans', 'credits', 'cred_distributions',
    'cred_changes', 'prepayments', 'incomes', 'paids', 'paid_reds', 'comp_info_changes',
    'comp_manager_changes', 'permits', 'companies']
  loop
    execute format('alter table %I add column org_id bigint references depts (id)', t);
    execute format('update %I x set org_id = u.dept_id from users u where u.id = x.created_by', t);
    execute format('create index %I on %I (org_id)', t || '_org_idx', t);
    execute format('create trigger %I before insert on %I for each row execute function stamp_maker_org()',
      t || '_stamp_org', t);
  end loop;
end $$;

alter table bank_accounts add column org_id bigint references depts (id);
update bank_accounts a set org_id = c.org_id
  from companies c where a.owner_type = 'customer' and c.comp_code = a.owner_code and c.deleted_at is null;
update bank_accounts a set org_id = u.dept_id from users u where a.org_id is null and u.id = a.created_by;
create index bank_accounts_org_idx on bank_accounts (org_id);
create trigger bank_accounts_stamp_org before insert on bank_accounts
  for each row execute function stamp_bank_account_org();
