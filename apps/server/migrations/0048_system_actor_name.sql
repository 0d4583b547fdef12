-- The server's own writes (demo data, day-end) were recorded under the name 'system', which 待办,
-- the bell, 操作日志 and 审核信息 showed as is (issue 40). They are now recorded as 系统
-- (packages/contract audit.ts SYSTEM_ACTOR_NAME); the rows written before are renamed the same way.
-- Only rows of no user are touched: a person whose user name is "system" keeps it.
update audit_log set actor_name = '系统' where actor_name = 'system' and coalesce(actor_id, 0) = 0;
update wf_instances set submitter_name = '系统' where submitter_name = 'system' and submitted_by = 0;
update wf_records set actor_name = '系统' where actor_name = 'system' and coalesce(actor_id, 0) = 0;
update wf_circulations set from_name = '系统' where from_name = 'system' and coalesce(from_user_id, 0) = 0;
update messages set from_name = '系统' where from_name = 'system';
update credit_ledger set actor_name = '系统' where actor_name = 'system' and coalesce(actor_id, 0) = 0;
update files set uploaded_by_name = '系统' where uploaded_by_name = 'system' and coalesce(uploaded_by, 0) = 0;
update permit_role_changes set created_by_name = '系统' where created_by_name = 'system' and coalesce(created_by, 0) = 0;
