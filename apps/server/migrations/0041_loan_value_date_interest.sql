-- 前置利息 runs from the 放款单's value date (docs/money-lifecycle.md "Interest starts on the value
-- date"): a line now records the contract's due before the disbursement (due_amount, what a reversal
-- restores) beside the amount the disbursement charges, and what a prepayment received above that
-- amount is paid back with the net (returned). Existing lines charged the contract's due and
-- returned nothing, so their figures stay as they are.
alter table loan_lines add column due_amount numeric(18, 2);
update loan_lines set due_amount = amount;
alter table loan_lines alter column due_amount set not null;
alter table loan_lines add constraint loan_lines_due_amount_check check (due_amount > 0);
alter table loan_lines add column returned numeric(18, 2) not null default 0;
alter table loan_lines drop constraint loan_lines_check;
alter table loan_lines add constraint loan_lines_collected_check
  check (returned >= 0 and prepaid + deducted - returned = amount and (deducted = 0 or returned = 0));

alter table loans add column returned_amount numeric(18, 2) not null default 0;
alter table loans drop constraint loans_check;
alter table loans add constraint loans_net_check
  check (returned_amount >= 0 and financing_amount - deducted_amount + returned_amount = net_amount);
