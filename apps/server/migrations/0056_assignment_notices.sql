-- 应收账款转让通知书 and the debtor's 确认 (docs/assignment-notice.md). A disclosed (明保理) contract
-- has one notice per debtor, the debtor named as its receivables name it; the notice records the
-- debtor's confirmation (date, who signed, the signed copy as attachments of docType assignNotice)
-- or a checker's waiver with its reason. Every debtor of a contract's receivables has its row: a
-- trigger makes it as the receivable is written, and this migration for the receivables already there.

create sequence code_seq_assign_notice;

create table assignment_notices (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  debtor_name text not null,
  confirm_date date,
  -- The debtor's person who signed the confirmation.
  confirmed_by text,
  confirm_recorded_by bigint,
  confirm_recorded_at timestamptz,
  waive_reason text,
  waived_by bigint,
  waived_at timestamptz,
  version integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  updated_by bigint,
  unique (contract_id, debtor_name),
  check ((confirm_date is null) = (confirmed_by is null)),
  check ((confirm_date is null) = (confirm_recorded_by is null)),
  check ((waived_at is null) = (waived_by is null and waive_reason is null)),
  -- Confirmed or waived, never both.
  check (confirm_date is null or waived_at is null)
);

create function contract_receivables_notice() returns trigger language plpgsql as $$
begin
  if new.live and not exists (select 1 from assignment_notices n
                               where n.contract_id = new.contract_id and n.debtor_name = new.debtor_name) then
    insert into assignment_notices (biz_code, contract_id, debtor_name)
      values (lpad(nextval('code_seq_assign_notice')::text, 12, '0'), new.contract_id, new.debtor_name)
      on conflict (contract_id, debtor_name) do nothing;
  end if;
  return null;
end $$;
create trigger contract_receivables_notice after insert on contract_receivables
  for each row execute function contract_receivables_notice();

insert into assignment_notices (biz_code, contract_id, debtor_name)
  select lpad(nextval('code_seq_assign_notice')::text, 12, '0'), d.contract_id, d.debtor_name
    from (select distinct contract_id, debtor_name from contract_receivables where live
           order by contract_id, debtor_name) d;

-- The rule in the database (the services check it first, under the contract's lock, with a
-- message naming the debtors): a disclosed contract becomes 已放款 only when every debtor of its
-- live receivables is confirmed or waived, and once disbursed a confirmation or waiver stays.
create function contracts_notices_settled() returns trigger language plpgsql as $$
declare
  missing text;
begin
  if new.loan_state = 'loaned' and old.loan_state <> 'loaned' and new.disclosure = 'disclosed' then
    select string_agg(d.debtor_name, '、' order by d.debtor_name) into missing
      from (select distinct debtor_name from contract_receivables
             where contract_id = new.id and live) d
     where not exists (select 1 from assignment_notices n
                        where n.contract_id = new.id and n.debtor_name = d.debtor_name
                          and (n.confirm_date is not null or n.waived_at is not null));
    if missing is not null then
      raise exception '明保理合同的债务人尚未确认转让通知：%', missing using errcode = '23514';
    end if;
  end if;
  return new;
end $$;
create trigger contracts_notices_settled before update of loan_state on contracts
  for each row execute function contracts_notices_settled();

create function assignment_notices_kept() returns trigger language plpgsql as $$
begin
  if (old.confirm_date is not null or old.waived_at is not null)
     and new.confirm_date is null and new.waived_at is null
     and exists (select 1 from contracts c where c.id = new.contract_id and c.loan_state = 'loaned') then
    raise exception '合同已放款，不能撤销转让通知的确认或豁免' using errcode = '23514';
  end if;
  return new;
end $$;
create trigger assignment_notices_kept before update on assignment_notices
  for each row execute function assignment_notices_kept();

-- Databases started before this migration: 业务 records confirmations, 风控 waives (the catalogue
-- seeds the button rows itself at start-up).
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-contract-info:' || a.action from roles r
  join (values ('biz-manager', 'noticeConfirm'), ('risk', 'noticeWaive')) a (role, action)
    on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;

-- The 应收账款转让通知书 is printed from its own template (modules/print).
alter table print_templates drop constraint print_templates_biz_type_check;
alter table print_templates add constraint print_templates_biz_type_check
  check (biz_type in ('contract', 'handover', 'prepayment', 'loan', 'repayment', 'writeOff', 'credit', 'statement',
                      'classAdjust', 'buyback', 'assignNotice'));
