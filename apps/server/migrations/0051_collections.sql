-- 逾期催收 (docs/collections.md): per contract its case (who collects, what comes next), the
-- 催收记录 of each contact with its promise to pay, and the reminders the day-end has sent (one row
-- per person, item and day offset, so a day-end run again, or two servers, send nothing twice).

create table collection_cases (
  contract_id bigint primary key references contracts (id),
  assignee_id bigint references users (id),
  next_action text,
  next_action_date date,
  updated_at timestamptz not null default now(),
  updated_by bigint references users (id)
);

create table collection_records (
  id bigserial primary key,
  contract_id bigint not null references contracts (id),
  contact_date date not null,
  channel text not null check (channel in ('phone', 'visit', 'sms', 'letter', 'email', 'other')),
  contact_person text,
  result text not null check (result in ('promised', 'refused', 'unreachable', 'disputed', 'other')),
  note text,
  promise_date date,
  promise_amount numeric(18, 2) check (promise_amount > 0),
  -- open until the promise date has passed; the day-end after it sets kept or broken.
  promise_state text check (promise_state in ('open', 'kept', 'broken')),
  -- What was paid from the contact date through the promise date, when the promise was judged.
  promise_paid numeric(18, 2),
  judged_on date,
  created_by bigint references users (id),
  created_at timestamptz not null default now(),
  check ((result = 'promised') = (promise_date is not null and promise_amount is not null and promise_state is not null))
);
create index collection_records_contract_idx on collection_records (contract_id, contact_date desc, id desc);
create index collection_records_open_idx on collection_records (promise_date) where promise_state = 'open';

create table collection_reminders (
  id bigserial primary key,
  user_id bigint not null references users (id),
  contract_id bigint not null references contracts (id),
  plan_item_id bigint not null references contract_plan_items (id),
  -- Days after the due date (negative: before it).
  offset_days integer not null,
  business_date date not null,
  created_at timestamptz not null default now(),
  unique (user_id, plan_item_id, offset_days)
);

alter table messages drop constraint messages_kind_check;
alter table messages add constraint messages_kind_check
  check (kind in ('todo', 'rejected', 'circulate', 'dueSoon', 'overdue', 'jobFailed', 'notice', 'collect', 'promiseBroken'));

-- Databases started before this migration: the roles the first start made get the new screen (the
-- catalogue seeds the menu row itself at start-up). 业务 records contacts and assigns; the others read.
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-collection' from roles r
  where r.deleted_at is null and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-collection:' || a.action from roles r
  join (values ('biz-manager', 'add'), ('biz-manager', 'update'), ('biz-manager', 'export'),
               ('biz-manager', 'print'), ('risk', 'export'), ('risk', 'print'),
               ('gm', 'update'), ('gm', 'export'), ('gm', 'print')) a (role, action)
    on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
