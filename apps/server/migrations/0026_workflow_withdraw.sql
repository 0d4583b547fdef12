-- Withdrawal (撤回, docs/architecture.md "Documents and approvals"): the maker takes a submitted
-- document back while no approver has acted on it. The round ends `withdrawn` (the document is a
-- draft again) and the process records the `withdraw` step.
alter table wf_instances drop constraint wf_instances_state_check;
alter table wf_instances add constraint wf_instances_state_check
  check (state in ('pending', 'approved', 'rejected', 'withdrawn'));
alter table wf_records drop constraint wf_records_action_check;
alter table wf_records add constraint wf_records_action_check
  check (action in ('submit', 'approve', 'reject', 'revoke', 'withdraw'));
-- 被驳回 to-do of the maker: their rejected rounds.
create index wf_instances_rejected_idx on wf_instances (submitted_by) where state = 'rejected';
