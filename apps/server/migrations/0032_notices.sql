-- 通知公告 (issue 30; docs/operations.md "Announcements"): plain-text announcements with a publish
-- window. A published one is shown on the 工作 dashboard, while now lies in [publish_from,
-- publish_to), to the users of the organisations chosen in notice_depts and of their
-- sub-organisations; an announcement without a row there is for everyone.
create table notices (
  id bigserial primary key,
  title text not null,
  content text not null,
  publish_from timestamptz not null,
  publish_to timestamptz not null,
  state text not null default 'draft',
  version integer not null default 0,
  created_by bigint references users (id),
  created_at timestamptz not null default now(),
  updated_by bigint references users (id),
  updated_at timestamptz not null default now(),
  constraint notices_state_check check (state in ('draft', 'published', 'withdrawn')),
  constraint notices_window_check check (publish_to > publish_from)
);
create index notices_in_force_idx on notices (publish_to, publish_from) where state = 'published';

create table notice_depts (
  notice_id bigint not null references notices (id) on delete cascade,
  dept_id bigint not null references depts (id),
  primary key (notice_id, dept_id)
);
create index notice_depts_dept_idx on notice_depts (dept_id);

-- 操作日志's result (success / failure): a write that was refused or failed leaves a row of its own,
-- written after its transaction rolled back (platform/http/app.ts); every earlier row recorded a
-- committed write, so it is a success.
alter table audit_log add column result text not null default 'success';
alter table audit_log add constraint audit_log_result_check check (result in ('success', 'failure'));
