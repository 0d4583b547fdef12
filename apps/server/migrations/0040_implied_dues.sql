-- The up-front items a contract's rule and terms imply (docs/money-lifecycle.md "Implied up-front
-- items"): margin from the margin ratio, 前置利息 and 前置手续费 from the plan. They are made with
-- the plan; a maker may change one only with a reason, which the checker sees beside the rule's
-- figure.
--   rule_amount: the rule's figure the due was made or saved against (null: a due the rule does
--                not imply, or one made before this migration);
--   reason:      the maker's reason for an amount other than the rule's.
alter table contract_dues add column rule_amount numeric(18, 2) check (rule_amount > 0);
alter table contract_dues add column reason text;

-- Contracts not yet disbursed that lack an implied item get it now, at the rule's figure, so the
-- 放款单 deducts it (a contract approved without saving its dues would otherwise pay out its
-- 前置利息). Existing dues are left as they are: a kind already present is not touched, and
-- nothing disbursed, prepaid or posted changes.
insert into contract_dues (contract_id, kind, amount, due_date, rule_amount, sort)
select c.id, i.kind, i.amount, c.start_date, i.amount, 100 + i.n
from contracts c
cross join lateral (
  values (1, 'margin', round(c.financing_amount * coalesce(c.margin_ratio, 0), 2)),
         (2, 'upfrontInterest', c.upfront_interest),
         (3, 'upfrontFee', c.upfront_fee)
) as i (n, kind, amount)
where c.deleted_at is null
  and c.rule_snapshot is not null
  and c.loan_state = 'none'
  and c.status <> 'settled'
  and i.amount > 0
  and not exists (select 1 from contract_dues d where d.contract_id = c.id and d.kind = i.kind);
