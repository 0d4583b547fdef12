-- Data scope gains 本部门 (the holder's own organisation, without those below it) and 自定义 (the
-- organisations chosen on the role), as RuoYi offers (issue 39; platform/auth/data-scope.ts). The
-- chosen organisations of a 自定义 role are its rows here; a role of any other scope has none.
alter table roles drop constraint roles_data_scope_check;
alter table roles add constraint roles_data_scope_check
  check (data_scope in ('all', 'dept', 'deptOnly', 'custom', 'self'));

create table role_depts (
  role_id bigint not null references roles (id),
  dept_id bigint not null references depts (id),
  primary key (role_id, dept_id)
);

-- What a session resolves to depends on these rows too (migrations/0017).
create trigger role_depts_auth_changed after insert or update or delete or truncate
  on role_depts for each statement execute function portal_auth_changed();
