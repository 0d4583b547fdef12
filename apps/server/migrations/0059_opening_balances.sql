-- 期初导入 (issue 44 §1, docs/money-lifecycle.md "Opening balances"): contracts already running
-- when the office started using the portal come in approved and disbursed, with what was already
-- repaid on their plan. Nothing existing changes: every new column is null for the rows there
-- are, every new value is one no row holds yet.

-- The business date of the import that brought the contract in (null: made in the portal).
alter table contracts add column opening_date date;

-- What a plan item had been repaid before the import is an approved write-off of kind 'opening'
-- (no incoming stands behind it: the money came in before the portal), so every reader of dated
-- write-off lines (itemAsOf, overdue, the ledger) reads it like any other repayment.
alter table paids alter column income_id drop not null;
alter table paids drop constraint paids_kind_check;
alter table paids add constraint paids_kind_check
  check (kind in ('normal', 'settlement', 'manual', 'buyback', 'opening'));
-- A buy-back's closing write-off (0055) has no incoming either.
alter table paids drop constraint paids_buyback_income_check;
alter table paids add constraint paids_income_check
  check ((income_id is null) = (kind in ('buyback', 'opening')));

-- The 期初 voucher of each imported contract.
alter table vouchers drop constraint vouchers_doc_type_check;
alter table vouchers add constraint vouchers_doc_type_check
  check (doc_type in ('loan', 'loanRed', 'prepayment', 'income', 'paid', 'paidRed', 'accrual', 'deferral',
                      'buyback', 'buybackRed', 'buybackSettle', 'opening'));

-- A contract brought in by the 期初导入 was disbursed before the portal, its notices of assignment
-- handled outside it (docs/assignment-notice.md "Imported contracts"): the rule of 0056 that a
-- disclosed contract becomes 已放款 only with every debtor confirmed is about the portal's own 放款.
create or replace function contracts_notices_settled() returns trigger language plpgsql as $$
declare
  missing text;
begin
  if new.loan_state = 'loaned' and old.loan_state <> 'loaned' and new.disclosure = 'disclosed'
     and new.opening_date is null then
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
