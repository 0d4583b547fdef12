-- 待审批 messages follow the step's deciders (issue 39; SECURITY.md "Approvals"): whoever holds the
-- step's role AND has the document inside the data scope that role grants. That scope is the
-- server's rule (platform/auth/row-scope.ts), so the workflow now chooses the recipients and writes
-- them (messages.addTodoMessages) in the transaction that moves the process; the trigger keeps only
-- marking a decided step's to-dos read. Messages delivered before this change are left as they were
-- (SECURITY.md "Approvals" says why).
create or replace function messages_wf_instance() returns trigger language plpgsql as $$
begin
  update messages set read_at = now()
   where kind = 'todo' and doc_type = new.doc_type and doc_code = new.doc_code and read_at is null;
  return null;
end $$;
drop trigger wf_instances_messages on wf_instances;
