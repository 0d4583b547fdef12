-- Why a session ended before its time, so that its next call says so instead of the generic
-- 登录已失效 (docs/operations.md "在线用户: a session ended early"). Sessions revoked before this
-- migration keep no reason and get the generic message.
alter table sessions add column revoked_reason text
  check (revoked_reason in ('logout', 'forced', 'account'));
