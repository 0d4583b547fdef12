-- 五级分类 (five-category asset classification, docs/classification.md).
--
-- contract_classes: each live contract's classification as of a business date, written by the
-- day-end of that date (and by the approval of a 分类调整单 on that date). It keeps the overdue days
-- the proposal read, the class the thresholds proposed and the class in force; never a money figure
-- (the ledger computes those from the postings).
create table contract_classes (
  contract_id bigint not null references contracts (id),
  business_date date not null,
  overdue_days integer not null check (overdue_days >= 0),
  proposed_class text not null check (proposed_class in ('normal', 'watch', 'substandard', 'doubtful', 'loss')),
  asset_class text not null check (asset_class in ('normal', 'watch', 'substandard', 'doubtful', 'loss')),
  -- The approved 分类调整单 holding asset_class over the proposal (null: the proposal is in force).
  adjustment_id bigint,
  -- Who wrote the row last: the day-end, or an approval on a date whose day-end had not run.
  source text not null default 'dayEnd' check (source in ('dayEnd', 'adjustment')),
  recorded_at timestamptz not null default now(),
  primary key (contract_id, business_date),
  check (adjustment_id is not null or asset_class = proposed_class)
);
create index contract_classes_date_idx on contract_classes (business_date);

-- 分类调整单 (workflow document 'classAdjust'): the maker proposes a new class for one contract with
-- a reason; the checker's approval puts it in force from the business date of the approval.
create sequence code_seq_class_adj;

create table class_adjustments (
  id bigserial primary key,
  biz_code char(12) not null unique,
  contract_id bigint not null references contracts (id),
  -- The class in force when the document was saved (null: not classified yet).
  from_class text check (from_class in ('normal', 'watch', 'substandard', 'doubtful', 'loss')),
  to_class text not null check (to_class in ('normal', 'watch', 'substandard', 'doubtful', 'loss')),
  reason text not null,
  -- The business date the approval put the class in force on, and the class the thresholds proposed
  -- then: the adjustment stands until a day-end proposes worse than both (docs/classification.md).
  effective_date date,
  base_class text check (base_class in ('normal', 'watch', 'substandard', 'doubtful', 'loss')),
  state text not null default 'draft' check (state in ('draft', 'pending', 'approved', 'rejected')),
  submitted_at timestamptz,
  submitted_by bigint,
  approved_at timestamptz,
  approved_by bigint,
  created_at timestamptz not null default now(),
  created_by bigint,
  updated_at timestamptz not null default now(),
  updated_by bigint,
  version integer not null default 0,
  deleted_at timestamptz,
  org_id bigint references depts (id)
);
create index class_adjustments_contract_idx on class_adjustments (contract_id) where deleted_at is null;
create index class_adjustments_org_idx on class_adjustments (org_id);
-- One open (not yet approved) adjustment per contract: two makers cannot race two proposals.
create unique index class_adjustments_open_key on class_adjustments (contract_id)
  where deleted_at is null and state <> 'approved';
create trigger class_adjustments_stamp_org before insert on class_adjustments
  for each row execute function stamp_maker_org();

alter table contract_classes add constraint contract_classes_adjustment_fk
  foreign key (adjustment_id) references class_adjustments (id);

-- Databases started before this migration: the roles the first start made get the new screen like
-- the other documents (the catalogue seeds the menu row itself at start-up).
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-classification' from roles r
  where r.deleted_at is null and r.code in ('biz-manager', 'risk', 'gm', 'finance', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, 'ft-classification:' || a.action from roles r
  join (values ('biz-manager', 'add'), ('biz-manager', 'save'), ('biz-manager', 'delete'),
               ('biz-manager', 'print'), ('biz-manager', 'circulate'),
               ('risk', 'audit'), ('risk', 'unAudit'), ('risk', 'print'), ('risk', 'circulate'),
               ('gm', 'audit'), ('gm', 'unAudit'), ('gm', 'print'), ('gm', 'circulate')) a (role, action)
    on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
