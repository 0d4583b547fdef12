-- 系统监控 (issue 30): 操作日志, 登录日志 and 在线用户 read what the portal already records; this adds
-- what they show and did not record.

-- 操作日志: the client address of the request that wrote the row (the request id is already there).
alter table audit_log add column ip text;
create index audit_log_at_idx on audit_log (at desc, id desc);
create index audit_log_actor_idx on audit_log (actor_id, at desc);

-- 登录日志: why an attempt failed, and the browser it came from. An attempt refused while the name
-- is locked is recorded as `locked`: shown, but it neither counts towards the captcha and the lock
-- nor prolongs it. Rows from before this migration are a success or an unspecified failure.
alter table login_attempts add column outcome text;
update login_attempts set outcome = case when success then 'success' else 'failed' end;
alter table login_attempts alter column outcome set not null;
alter table login_attempts add constraint login_attempts_outcome_check check (
  outcome in ('success', 'badPassword', 'unknownUser', 'captchaFailed', 'locked', 'disabled', 'failed')
  and (outcome = 'success') = success
);
alter table login_attempts add column user_agent text;
-- An administrator's unlock: failures up to it no longer count (towards the lock or the captcha).
alter table login_attempts add column cleared_at timestamptz;
create index login_attempts_at_idx on login_attempts (at desc, id desc);

-- 在线用户 lists live sessions newest first.
create index sessions_live_idx on sessions (created_at desc) where revoked_at is null;
