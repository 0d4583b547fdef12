-- 客户准入 (docs/admission.md): a customer may hold a credit or a contract only once admitted, through
-- a 客户准入单 (workflow type custAdmission) that the business side raises with the KYC material and
-- the risk checker approves.
--
-- Every customer that exists before this migration is admitted by it (the column is added with the
-- default 'admitted', then the default turns to 'pending' for customers entered from now on): the
-- credits and contracts that already name them keep working. Their admission_code stays null: no
-- 准入单 admitted them.
alter table companies add column admission text not null default 'admitted'
  check (admission in ('pending', 'admitted'));
alter table companies alter column admission set default 'pending';
alter table companies add column admitted_at timestamptz;
alter table companies add column admission_code char(12);

create sequence code_seq_cust_admission;

create table cust_admissions (
  id bigserial primary key,
  biz_code char(12) not null unique,
  comp_code char(12) not null,
  -- The customer's version when the 准入单 was last saved: approval admits the customer only while
  -- its data is still what the checker saw.
  base_version integer not null,
  legal_id_no text not null check (length(legal_id_no) = 18),
  controller_name text not null check (length(controller_name) between 1 and 200),
  bank_biz_code char(12) not null,
  -- The KYC files (files module, doc_type custAdmission, doc_code biz_code), one per item: the save
  -- requires each; only the demo office's 准入单, entered without uploads, have none.
  license_file text,
  legal_id_file text,
  controller_file text,
  bank_proof_file text,
  remark text check (remark is null or length(remark) <= 500),
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
-- At most one open (draft, pending or rejected) 准入单 per customer.
create unique index cust_admissions_open_key on cust_admissions (comp_code)
  where state <> 'approved' and deleted_at is null;
create index cust_admissions_created_idx on cust_admissions (created_at) where deleted_at is null;
create index cust_admissions_org_idx on cust_admissions (org_id);
create trigger cust_admissions_stamp_org before insert on cust_admissions
  for each row execute function stamp_maker_org();

-- Databases started before this migration: the roles the first start made get the new screen like
-- the other documents (the catalogue seeds the menu row itself at start-up), and 业务部 (biz-manager)
-- may enter customers and their accounts.
insert into role_menus (role_id, menu_code)
  select r.id, m.code from roles r
  cross join (values ('ft-config'), ('ft-cust-admit')) m (code)
  where r.deleted_at is null and r.code in ('biz-manager', 'risk', 'gm', 'viewer')
  on conflict do nothing;
insert into role_menus (role_id, menu_code)
  select r.id, a.code from roles r
  join (values ('biz-manager', 'ft-cust-admit:add'), ('biz-manager', 'ft-cust-admit:save'),
               ('biz-manager', 'ft-cust-admit:delete'), ('biz-manager', 'ft-cust-admit:print'),
               ('biz-manager', 'ft-cust-admit:circulate'),
               ('biz-manager', 'ft-company'), ('biz-manager', 'ft-company:add'),
               ('biz-manager', 'ft-company:update'), ('biz-manager', 'ft-bank'),
               ('biz-manager', 'ft-bank:add'), ('biz-manager', 'ft-bank:save'),
               ('risk', 'ft-cust-admit:audit'), ('risk', 'ft-cust-admit:unAudit'),
               ('risk', 'ft-cust-admit:print'), ('risk', 'ft-cust-admit:circulate'),
               ('gm', 'ft-cust-admit:audit'), ('gm', 'ft-cust-admit:unAudit'),
               ('gm', 'ft-cust-admit:print'), ('gm', 'ft-cust-admit:circulate')) a (role, code)
    on a.role = r.code
  where r.deleted_at is null
  on conflict do nothing;
