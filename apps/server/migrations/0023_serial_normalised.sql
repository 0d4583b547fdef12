-- Bank serial numbers entered before they were normalised (docs/money-rules.md "Bank serial
-- numbers"): rewritten as the application now stores them (NFKC, invisible characters out,
-- trimmed, upper case), so a receipt typed again in another spelling is found as a duplicate.
-- A row whose normalised serial would collide with another live row of the same account keeps
-- what was typed: the two are probably one receipt entered twice, for a person to look at, and
-- the upgrade must not fail on them.
create function pg_temp.serial_norm(v text) returns text language sql immutable as $$
  select upper(regexp_replace(
    regexp_replace(normalize(v, NFKC),
      E'[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]', '', 'g'),
    '^\s+|\s+$', '', 'g'))
$$;

update incomes i
   set serial_no = pg_temp.serial_norm(i.serial_no)
 where i.serial_no <> pg_temp.serial_norm(i.serial_no)
   and not exists (
     select 1 from incomes o
      where o.id <> i.id
        and o.bank_biz_code = i.bank_biz_code
        and o.deleted_at is null
        and pg_temp.serial_norm(o.serial_no) = pg_temp.serial_norm(i.serial_no)
   );

drop function pg_temp.serial_norm(text);
