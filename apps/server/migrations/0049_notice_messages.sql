-- 通知公告 in the message centre (issue 40; docs/operations.md "Announcements"): a published
-- announcement is a message (kind notice, doc_type notice, doc_code its id) to every user it is
-- addressed to, written by the notices module in the transaction that publishes it. Such a message
-- is shown only while its announcement is in force; withdrawing or deleting the announcement
-- deletes its messages.
alter table messages drop constraint messages_kind_check;
alter table messages add constraint messages_kind_check
  check (kind in ('todo', 'rejected', 'circulate', 'dueSoon', 'overdue', 'jobFailed', 'notice'));
-- Finding an announcement's messages (re-addressing, withdrawing, deleting).
create index messages_notice_idx on messages (doc_code) where kind = 'notice';
