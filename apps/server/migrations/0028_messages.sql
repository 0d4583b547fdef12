-- 消息中心 (docs/operations.md "Messages"): what a user is told, in-app. Rows are written by
-- triggers on the tables whose rows are the events, in the same transaction, so no code path that
-- submits, approves, rejects, circulates or reminds can forget to tell: a new to-do (a step a user's
-- role decides), a rejection (to the submitter, with the reason), a circulation, and the day-end's
-- due-soon and overdue reminders. A message opens its document (doc_type, doc_code).
create table messages (
  id bigserial primary key,
  user_id bigint not null references users (id),
  kind text not null check (kind in ('todo', 'rejected', 'circulate', 'dueSoon', 'overdue')),
  doc_type text not null,
  doc_code text not null,
  subject text,
  from_name text,
  detail text,
  created_at timestamptz not null default now(),
  read_at timestamptz
);
create index messages_user_idx on messages (user_id, id desc);
-- The bell's count: the unread rows of one user.
create index messages_unread_idx on messages (user_id) where read_at is null;

-- A pending step: its to-do goes to every enabled holder of the step's role (not the submitter
-- unless self-approval is allowed). When the step is decided, the to-dos of the step before are
-- read: what they asked for is done.
create function messages_wf_instance() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    update messages set read_at = now()
     where kind = 'todo' and doc_type = new.doc_type and doc_code = new.doc_code and read_at is null;
  end if;
  if new.state = 'pending' then
    insert into messages (user_id, kind, doc_type, doc_code, subject, from_name)
    select distinct ur.user_id, 'todo', new.doc_type, new.doc_code, new.subject, new.submitter_name
      from user_roles ur
      join roles r on r.id = ur.role_id and r.state = 'enabled' and r.deleted_at is null
      join users u on u.id = ur.user_id and u.state = 'enabled' and u.deleted_at is null
     where r.code = new.step_role
       and (ur.user_id <> new.submitted_by
            or coalesce((select allow_self_approval from wf_settings where id = 1), false));
  end if;
  return null;
end $$;
create trigger wf_instances_messages after insert on wf_instances
  for each row execute function messages_wf_instance();
create trigger wf_instances_step_messages after update of current_step, state on wf_instances
  for each row when (old.current_step is distinct from new.current_step or old.state is distinct from new.state)
  execute function messages_wf_instance();

-- 被驳回 (a step rejected, or an approved document taken back): the submitter learns who and why.
create function messages_wf_reject() returns trigger language plpgsql as $$
begin
  insert into messages (user_id, kind, doc_type, doc_code, subject, from_name, detail)
  select i.submitted_by, 'rejected', new.doc_type, new.doc_code, i.subject, new.actor_name, new.comment
    from wf_instances i join users u on u.id = i.submitted_by and u.deleted_at is null
   where i.id = new.instance_id;
  return null;
end $$;
create trigger wf_records_messages after insert on wf_records
  for each row when (new.action in ('reject', 'revoke')) execute function messages_wf_reject();

-- 传阅
create function messages_circulation() returns trigger language plpgsql as $$
begin
  insert into messages (user_id, kind, doc_type, doc_code, subject, from_name, detail)
  values (new.to_user_id, 'circulate', new.doc_type, new.doc_code, new.subject, new.from_name, new.message);
  return null;
end $$;
create trigger wf_circulations_messages after insert on wf_circulations
  for each row execute function messages_circulation();

-- The day-end's reminders (docs/business-date.md): given once per person, item and kind, and so
-- is their message.
create function messages_reminder() returns trigger language plpgsql as $$
begin
  insert into messages (user_id, kind, doc_type, doc_code, subject, detail)
  select new.user_id, new.kind, 'contract', c.biz_code, c.contract_no,
         '第' || i.period || '期，还款日 ' || to_char(i.due_date, 'YYYY-MM-DD')
    from contracts c join contract_plan_items i on i.id = new.plan_item_id
   where c.id = new.contract_id;
  return null;
end $$;
create trigger reminders_messages after insert on reminders
  for each row execute function messages_reminder();
