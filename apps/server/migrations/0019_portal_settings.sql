-- Facts about the database itself that the server must know at start-up (docs/operations.md
-- "The first start"). 'first_start' records that the first start completed (admin created, demo
-- data loaded or declined); it is written in the same transaction as the demo data, so a start
-- that dies half-way leaves no row and the next start does the whole first start again.
create table portal_settings (
  key text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);

-- A database that an earlier release has started already holds its users (and perhaps demo data
-- that was loaded without a record): its first start is over, and demo data must not be loaded
-- into it again. A database being created now has no users yet at this point.
insert into portal_settings (key, value)
  select 'first_start', 'before-0019' where exists (select 1 from users);
