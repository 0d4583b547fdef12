-- 定时任务 (docs/operations.md "Scheduled jobs"): one row per job the server knows, with the cron
-- expression an administrator may change and whether it is paused, and the history of its runs.
-- A scheduled run is claimed by the one server that locks the job's row while its next_at has come
-- (select … for update skip locked): it moves next_at on and writes the run row in the same
-- transaction, so servers sharing the database run each scheduled time once. The unique index
-- below says the same in the data: one scheduled run per job and time.
create table jobs (
  code text primary key,
  cron text not null,
  paused boolean not null default false,
  -- The schedule's next time; null while paused.
  next_at timestamptz,
  updated_at timestamptz not null default now(),
  updated_by bigint references users (id)
);

create table job_runs (
  id bigserial primary key,
  job text not null references jobs (code),
  trigger text not null check (trigger in ('schedule', 'manual')),
  -- The scheduled time a 'schedule' run answers; null for 立即执行.
  scheduled_for timestamptz,
  started_at timestamptz not null default now(),
  ended_at timestamptz,
  result text not null check (result in ('running', 'ok', 'failed')),
  detail text,
  error text,
  -- Which server ran it (host and process id): several servers share one history.
  server text not null,
  started_by bigint references users (id)
);
create unique index job_runs_scheduled_once on job_runs (job, scheduled_for) where trigger = 'schedule';
create index job_runs_job_idx on job_runs (job, id desc);

-- A failed run tells the administrators in the message centre.
alter table messages drop constraint messages_kind_check;
alter table messages add constraint messages_kind_check
  check (kind in ('todo', 'rejected', 'circulate', 'dueSoon', 'overdue', 'jobFailed'));
