-- Platform: organisations, users, roles, menus, sessions, envelope state, audit log.
-- Every business table carries created/updated at/by and version (DESIGN.md "Persistence").

create sequence code_seq_dept;
create sequence code_seq_user;
create sequence code_seq_role;

create table depts (
  id bigserial primary key,
  biz_code char(12) not null unique,
  name text not null,
  parent_id bigint references depts (id),
  sort integer not null default 0,
  leader text,
  phone text,
  state text not null default 'enabled' check (state in ('enabled', 'disabled')),
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  check (parent_id is null or parent_id <> id)
);
create index depts_parent_idx on depts (parent_id) where deleted_at is null;

create table users (
  id bigserial primary key,
  user_code char(12) not null unique,
  user_name text not null,
  real_name text not null,
  phone text,
  email text,
  dept_id bigint references depts (id),
  state text not null default 'enabled' check (state in ('enabled', 'disabled')),
  password_hash text not null,
  must_change_password boolean not null default false,
  avatar text,
  introduction text,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
create unique index users_user_name_key on users (lower(user_name)) where deleted_at is null;
create index users_dept_idx on users (dept_id) where deleted_at is null;

create table roles (
  id bigserial primary key,
  biz_code char(12) not null unique,
  name text not null,
  code text not null,
  description text,
  state text not null default 'enabled' check (state in ('enabled', 'disabled')),
  data_scope text not null default 'all' check (data_scope in ('all', 'dept', 'self')),
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz
);
create unique index roles_code_key on roles (code) where deleted_at is null;

create table menus (
  code text primary key,
  title text not null,
  parent_code text,
  kind text not null check (kind in ('menu', 'button')),
  sort integer not null default 0
);

create table role_menus (
  role_id bigint not null references roles (id) on delete cascade,
  menu_code text not null,
  primary key (role_id, menu_code)
);

create table user_roles (
  user_id bigint not null references users (id) on delete cascade,
  role_id bigint not null references roles (id) on delete cascade,
  primary key (user_id, role_id)
);
create index user_roles_role_idx on user_roles (role_id);

create table sessions (
  id bigserial primary key,
  token_hash text not null unique,
  user_id bigint not null references users (id),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
create index sessions_user_idx on sessions (user_id) where revoked_at is null;

create table login_attempts (
  id bigserial primary key,
  user_name text not null,
  success boolean not null,
  at timestamptz not null default now(),
  ip text
);
create index login_attempts_user_at_idx on login_attempts (user_name, at);

create table captchas (
  token_hash text primary key,
  answer text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create table nonces (
  nonce text primary key,
  seen_at timestamptz not null default now()
);
create index nonces_seen_idx on nonces (seen_at);

create table rsa_keys (
  key_id text primary key,
  public_pem text not null,
  private_pem text not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);

create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  actor_id bigint,
  actor_name text,
  entity text not null,
  entity_code text,
  action text not null,
  detail jsonb,
  request_id text
);
create index audit_log_entity_idx on audit_log (entity, entity_code);
