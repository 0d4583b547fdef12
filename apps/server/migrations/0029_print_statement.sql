-- 客户对账单 (docs/ledger.md): the standard print templates gain the business type `statement`,
-- printed for a customer over a period. The seed adds its standard template at the next start.
alter table print_templates drop constraint print_templates_biz_type_check;
alter table print_templates add constraint print_templates_biz_type_check
  check (biz_type in ('contract', 'handover', 'prepayment', 'loan', 'repayment', 'writeOff', 'credit', 'statement'));
