-- 减值准备 and 月结 (docs/accounting.md "Provisioning" and "Month close"; issue 44 §2, §3).
-- Nothing posted is touched: every voucher and line posted before keeps its figures.

-- The month-end provisioning run: the change in each contract's 坏账准备.
alter table vouchers drop constraint vouchers_doc_type_check;
alter table vouchers add constraint vouchers_doc_type_check
  check (doc_type in ('loan', 'loanRed', 'prepayment', 'income', 'paid', 'paidRed', 'accrual', 'deferral',
                      'buyback', 'buybackRed', 'buybackSettle', 'opening', 'provision'));

-- What each contract holds in 坏账准备: the run reads the lines of that role by contract.
create index voucher_lines_reserve on voucher_lines (contract_no) where role = 'badDebtReserve';

-- The two roles' default accounts (the seed, which runs at every start, adds them too); an office
-- that already mapped them keeps its mapping.
insert into voucher_accounts (role, code, name) values
  ('creditLoss', '6702', '信用减值损失'),
  ('badDebtReserve', '1231', '坏账准备')
  on conflict (role) do nothing;

-- The months of the books. A row exists for every month a voucher was written in (the posting
-- makes it) or a close was asked for; `closed` is what the close sets and a reopening clears.
create table book_months (
  period char(7) primary key,
  closed boolean not null default false,
  closed_at timestamptz,
  closed_by bigint references users (id),
  -- The month as it was closed: its vouchers and Σ debit. While closed, the month still counts the
  -- same (nothing can be written into it); an audit compares.
  voucher_count integer,
  debit_total numeric(18, 2)
);
insert into book_months (period) select distinct period from vouchers on conflict do nothing;

-- Four eyes: finance asks to close (or reopen) a month; a checker other than the asker approves
-- (the close runs in that approval's transaction) or rejects. One open request per month.
create table book_close_requests (
  id bigserial primary key,
  period char(7) not null,
  action text not null check (action in ('close', 'reopen')),
  reason text,
  state text not null default 'pending' check (state in ('pending', 'approved', 'rejected')),
  asked_by bigint not null references users (id),
  asked_at timestamptz not null default now(),
  decided_by bigint references users (id),
  decided_at timestamptz,
  comment text
);
create unique index book_close_requests_open on book_close_requests (period) where state = 'pending';
create index book_close_requests_period on book_close_requests (period, id);

-- No voucher is written into a closed month, whoever writes it: every posting path inserts into
-- vouchers, and this trigger runs for each row. It holds the month's row FOR SHARE until the
-- writing transaction ends, so a close (which takes the row FOR UPDATE before it checks and
-- closes) waits for every posting already in the month and each posting after waits for the
-- close and then sees it closed. The row is made first when missing, so there is always a row to
-- lock: a posting and a close that both make it are ordered by the primary key.
create function vouchers_open_month() returns trigger language plpgsql as $$
declare
  is_closed boolean;
begin
  insert into book_months (period) values (new.period) on conflict (period) do nothing;
  select closed into is_closed from book_months where period = new.period for share;
  if is_closed then
    raise exception '凭证日期%所在的会计期间%已结账，不能记账', new.voucher_date, new.period
      using errcode = 'P0001', hint = 'month-closed';
  end if;
  return new;
end $$;

create trigger vouchers_open_month before insert or update of period, voucher_date on vouchers
  for each row execute function vouchers_open_month();

-- Databases started before this migration: the roles the first start made get the new screen (the
-- catalogue seeds the menu row at start-up). 财务 asks, 风控 and 总经理 check; the read-only role reads.
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-voucher-close' from roles r
  where r.deleted_at is null and r.code in ('finance', 'risk', 'gm', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-voucher-close:' || a.action from roles r
  join (values ('finance', 'add'), ('risk', 'audit'), ('gm', 'audit')) a (role, action) on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
