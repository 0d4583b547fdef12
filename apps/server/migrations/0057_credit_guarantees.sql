-- Guarantees and collateral of a credit (担保授信, docs/credit.md "Guarantees and collateral";
-- issue 43 §4). The existing guarantee rows gain the guarantor's kind (enterprise or person, a
-- person with an ID number), the guarantee's period, its contract of guarantee (a file of the
-- files module, doc_type creditGua under the credit's code) and its release; a credit says whether
-- it requires a guarantee (guarantee_mode); collateral is listed per credit; the day-end's
-- reminders of guarantees ending and valuations growing old are kept once per person and item.
--
-- Existing data stays valid: every credit so far is 'credit' (no guarantee required, so no
-- approval changes), every guarantor so far an enterprise, and a guarantee saved before periods
-- were kept covers its credit's period.

alter table credits add column guarantee_mode text not null default 'credit'
  check (guarantee_mode in ('credit', 'guaranteed'));

alter table credit_guarantees
  add column guarantor_kind text not null default 'enterprise' check (guarantor_kind in ('enterprise', 'person')),
  add column id_no text,
  add column start_date date,
  add column end_date date,
  add column contract_file_token text,
  add column released_on date,
  add column released_by bigint references users (id),
  add column release_reason text,
  add constraint credit_guarantees_period_check check (end_date >= start_date),
  add constraint credit_guarantees_person_check
    check (guarantor_kind <> 'person' or id_no is not null),
  add constraint credit_guarantees_release_check
    check ((released_on is null) = (release_reason is null));

update credit_guarantees g set start_date = c.start_date, end_date = c.end_date
  from credits c where c.id = g.credit_id;
alter table credit_guarantees
  alter column start_date set not null,
  alter column end_date set not null;

create table credit_collaterals (
  id bigserial primary key,
  credit_id bigint not null references credits (id),
  kind text not null check (kind in ('realEstate', 'land', 'equipment', 'vehicle', 'receivable', 'deposit', 'equity', 'other')),
  name text,
  value numeric(18, 2) not null check (value > 0),
  valuation_date date not null,
  reg_no text not null,
  remark text,
  sort integer not null default 0
);
create index credit_collaterals_credit_idx on credit_collaterals (credit_id);

-- One reminder per person, item and event: a guarantee's end date, a collateral's valuation date
-- (a new valuation or a changed end date is a new event and is reminded of again).
create table guarantee_reminders (
  id bigserial primary key,
  user_id bigint not null references users (id),
  credit_id bigint not null references credits (id),
  item_kind text not null check (item_kind in ('guarantee', 'collateral')),
  item_id bigint not null,
  event_date date not null,
  business_date date not null,
  created_at timestamptz not null default now(),
  unique (user_id, item_kind, item_id, event_date)
);

alter table messages drop constraint messages_kind_check;
alter table messages add constraint messages_kind_check
  check (kind in ('todo', 'rejected', 'circulate', 'dueSoon', 'overdue', 'jobFailed', 'notice', 'collect', 'promiseBroken', 'guaranteeExpiry'));
