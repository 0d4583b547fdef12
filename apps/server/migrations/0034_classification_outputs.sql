-- 五级分类 outputs (docs/classification.md): the 分类调整单 prints through the print templates (business
-- type `classAdjust`; the seed adds its standard template at the next start), and the list gains an
-- 导出 button.
alter table print_templates drop constraint print_templates_biz_type_check;
alter table print_templates add constraint print_templates_biz_type_check
  check (biz_type in ('contract', 'handover', 'prepayment', 'loan', 'repayment', 'writeOff', 'credit', 'statement',
                      'classAdjust'));

-- Databases started before this migration: the demo's 财务 role gets the screen's buttons as a first
-- start now gives them (finance raises 分类调整单 and exports the list; 风控 checks them).
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-classification:' || a.action from roles r
  join (values ('add'), ('save'), ('delete'), ('print'), ('export'), ('circulate')) a (action) on true
  where r.deleted_at is null and r.code = 'finance'
  on conflict do nothing;
