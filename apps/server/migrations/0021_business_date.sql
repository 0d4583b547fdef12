-- 营业日 (business date) and 日终 (day-end), docs/business-date.md. The business date set on its
-- screen is the row portal_settings('business_date'); every server reads it and reloads it on the
-- notice the setting's transaction sends (NOTIFY portal_change, 'bizdate').

-- The job log: one row per run, written before the work starts and closed after it (done with its
-- counts, or failed with the error), so a run that fails still leaves its trace.
create table day_end_runs (
  id bigserial primary key,
  business_date date not null,
  trigger text not null check (trigger in ('dateChange', 'manual')),
  state text not null default 'running' check (state in ('running', 'done', 'failed')),
  started_at timestamptz not null default now(),
  ended_at timestamptz,
  started_by bigint,
  contracts integer not null default 0 check (contracts >= 0),
  overdue_items integer not null default 0 check (overdue_items >= 0),
  penalty_of_day numeric(18, 2) not null default 0 check (penalty_of_day >= 0),
  reminders_added integer not null default 0 check (reminders_added >= 0),
  error text,
  check ((state = 'running') = (ended_at is null))
);
create index day_end_runs_list_idx on day_end_runs (started_at desc, id desc);

-- What the day-end marked 逾期 on a business date, with the day's penalty accrual (for display).
-- A run replaces its date's rows, so running a date again leaves the same rows.
create table day_end_items (
  business_date date not null,
  plan_item_id bigint not null references contract_plan_items (id) on delete cascade,
  contract_id bigint not null references contracts (id),
  overdue_days integer not null check (overdue_days > 0),
  principal_overdue numeric(18, 2) not null check (principal_overdue >= 0),
  penalty_of_day numeric(18, 2) not null check (penalty_of_day >= 0),
  penalty_accrued numeric(18, 2) not null check (penalty_accrued >= 0),
  primary key (business_date, plan_item_id)
);

-- 到期提醒 in the contract owners' 待办: one per user, item and kind (a run that finds it again adds
-- nothing). A reminder whose item has been paid drops out of the list by itself.
create table reminders (
  id bigserial primary key,
  user_id bigint not null references users (id),
  contract_id bigint not null references contracts (id),
  plan_item_id bigint not null references contract_plan_items (id) on delete cascade,
  kind text not null check (kind in ('dueSoon', 'overdue')),
  business_date date not null,
  created_at timestamptz not null default now(),
  unique (user_id, plan_item_id, kind)
);
create index reminders_user_idx on reminders (user_id, business_date desc);
