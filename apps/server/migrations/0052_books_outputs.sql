-- 凭证引入 to the accounting package (docs/accounting.md "Export to the accounting package").
-- Nothing posted is touched: the package codes are read when a month is exported.

-- The package's account code of each role, null meaning the same code as ours; and whether the
-- role's lines carry the customer / contract auxiliary there (null: the role's default, none for
-- 银行存款 and 预收款项).
alter table voucher_accounts add column yonyou_code text;
alter table voucher_accounts add column kingdee_code text;
alter table voucher_accounts add column package_aux boolean;

-- 监管报表 (docs/ledger.md "The regulator's figures"): nothing marked a customer as a related party
-- of the factoring company, so the enterprise customer gets the mark; false for every customer
-- there is, which changes no figure.
alter table companies add column related_party boolean not null default false;
