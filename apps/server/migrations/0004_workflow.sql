-- Approvals (DESIGN.md "Documents and approvals"): process definitions per document type, one
-- process instance per submission, approval records, circulation (传阅). The document keeps its
-- own `state` column; these tables hold the process around it.

-- One row per document type: the process name and the version the editor read (optimistic lock).
create table wf_process_defs (
  doc_type text primary key,
  proc_name text not null,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0
);

-- Ordered steps; a step with min_amount applies only when the document amount >= it.
create table wf_process_steps (
  doc_type text not null references wf_process_defs (doc_type) on delete cascade,
  step_no integer not null check (step_no between 1 and 50),
  name text not null,
  role_code text not null,
  min_amount numeric(18, 2) check (min_amount is null or min_amount >= 0),
  primary key (doc_type, step_no)
);

-- One instance per submission (round). `steps` is the snapshot of the steps that apply, taken at
-- submission, so editing a definition never changes a document already in flight.
create table wf_instances (
  id bigserial primary key,
  doc_type text not null,
  doc_code text not null,
  round integer not null check (round >= 1),
  proc_name text not null,
  subject text not null,
  amount numeric(18, 2),
  state text not null default 'pending' check (state in ('pending', 'approved', 'rejected')),
  steps jsonb not null,
  step_count integer not null check (step_count >= 1),
  current_step integer not null check (current_step between 1 and step_count),
  step_role text not null,
  submitted_by bigint not null,
  submitter_name text not null,
  start_time timestamptz not null default now(),
  end_time timestamptz,
  version integer not null default 0,
  unique (doc_type, doc_code, round),
  check ((state = 'pending') = (end_time is null))
);
create index wf_instances_todo_idx on wf_instances (step_role, start_time) where state = 'pending';
-- At most one instance of a document in flight.
create unique index wf_instances_pending_key on wf_instances (doc_type, doc_code) where state = 'pending';

create table wf_records (
  id bigserial primary key,
  instance_id bigint not null references wf_instances (id),
  doc_type text not null,
  doc_code text not null,
  round integer not null,
  step_no integer not null,
  step_name text not null,
  action text not null check (action in ('submit', 'approve', 'reject', 'revoke')),
  actor_id bigint,
  actor_name text not null,
  comment text,
  at timestamptz not null default now()
);
create index wf_records_doc_idx on wf_records (doc_type, doc_code, id);
create index wf_records_instance_idx on wf_records (instance_id);

create table wf_circulations (
  id bigserial primary key,
  doc_type text not null,
  doc_code text not null,
  subject text not null,
  from_user_id bigint,
  from_name text not null,
  to_user_id bigint not null references users (id),
  message text,
  sent_at timestamptz not null default now(),
  read_at timestamptz,
  unique (doc_type, doc_code, to_user_id)
);
create index wf_circulations_to_idx on wf_circulations (to_user_id, sent_at) where read_at is null;

-- Settings written from the environment at every start (ALLOW_SELF_APPROVAL), read inside the
-- approving transaction.
create table wf_settings (
  id integer primary key check (id = 1),
  allow_self_approval boolean not null default false,
  -- When the default roles (业务经理, 风控, 总经理) were created: once, so a role the
  -- administrators delete later stays deleted.
  roles_seeded_at timestamptz
);
insert into wf_settings (id, allow_self_approval) values (1, false);
