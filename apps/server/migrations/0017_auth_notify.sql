-- Servers keep resolved sessions in memory so that a call costs no round trip for its session
-- (issue 14, platform/auth/sessions.ts SessionCache). Every committed change that can alter what a
-- session resolves to announces itself here; each server drops its whole cache on the notice.
-- NOTIFY is transactional: a rolled-back change sends nothing, and a transaction sends one notice
-- however many rows and statements it touched.
create function portal_auth_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('portal_change', 'auth');
  return null;
end $$;

-- last_seen_at is left out: the once-a-minute touch changes no answer.
create trigger sessions_auth_changed after update of revoked_at, expires_at, user_id, token_hash or delete
  on sessions for each statement execute function portal_auth_changed();
-- password_hash, phone, avatar and the like are not part of a session's answer.
create trigger users_auth_changed
  after update of user_code, user_name, real_name, dept_id, state, must_change_password, deleted_at
  or delete on users for each statement execute function portal_auth_changed();
create trigger roles_auth_changed after update of state, data_scope, deleted_at or delete
  on roles for each statement execute function portal_auth_changed();
create trigger user_roles_auth_changed after insert or update or delete or truncate
  on user_roles for each statement execute function portal_auth_changed();
create trigger role_menus_auth_changed after insert or update or delete or truncate
  on role_menus for each statement execute function portal_auth_changed();
