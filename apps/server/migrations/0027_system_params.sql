-- 参数设置 (docs/operations.md "Settings an administrator changes"): one row per setting, its value
-- as JSON. Rows are added at start-up for settings that have none yet, from the environment; after
-- that only the screen changes them. A committed change announces itself on the change feed
-- (topic 'params'), so every server applies it without a restart.
create table system_params (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by bigint
);

create function portal_params_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('portal_change', 'params');
  return null;
end $$;

create trigger system_params_changed after insert or update or delete or truncate
  on system_params for each statement execute function portal_params_changed();

-- Printed contracts named 甲方 by the receiving account's name (本公司 in most offices). Contract
-- templates that still print it so get our company's name from 参数设置 instead, and its seal where
-- 甲方 signs. Only that exact text is rewritten: a template the office reworded stays as it is.
update print_templates
   set content = replace(replace(content,
         '甲方（保理商）：</td><td>{{bankName}}</td>',
         '甲方（保理商）：</td><td>{{companyName}}</td>'),
         '<td>甲方（盖章）：</td>',
         '<td>甲方（盖章）：{{companyName}}{{#companySeal}}<br /><img src="{{companySeal}}" alt="公章" width="120" height="120" />{{/companySeal}}</td>'),
       version = version + 1, updated_at = now()
 where biz_type = 'contract'
   and (content like '%甲方（保理商）：</td><td>{{bankName}}</td>%' or content like '%<td>甲方（盖章）：</td>%');
