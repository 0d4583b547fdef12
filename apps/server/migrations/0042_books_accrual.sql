-- Interest on the books (docs/accounting.md "预收利息", docs/business-date.md "Catching up").
-- Nothing posted is touched: vouchers posted before this release keep every line.

-- 预收利息摊销: the month's share of 前置利息 moved from 预收利息 to 利息收入.
alter table vouchers drop constraint vouchers_doc_type_check;
alter table vouchers add constraint vouchers_doc_type_check
  check (doc_type in ('loan', 'loanRed', 'prepayment', 'income', 'paid', 'paidRed', 'accrual', 'deferral'));

-- What each contract holds deferred and what was recognised of it: the month-end reads the lines
-- of the role deferredInterest by contract, a small part of all lines.
create index voucher_lines_deferred on voucher_lines (contract_no) where role = 'deferredInterest';

-- The role's default account (the seed, which runs at every start, adds it too); an office that
-- already mapped it keeps its mapping.
insert into voucher_accounts (role, code, name) values ('deferredInterest', '2401', '递延收益')
  on conflict (role) do nothing;

-- The day-ends a forward move of the business date runs for the days it passes over.
alter table day_end_runs drop constraint day_end_runs_trigger_check;
alter table day_end_runs add constraint day_end_runs_trigger_check
  check (trigger in ('dateChange', 'manual', 'catchUp'));
