-- Progress of a day-end (日终) or a job run while it runs (issue 42 §5, docs/business-date.md
-- "Progress"). The work is one transaction, so nothing it writes is seen before it commits; its
-- progress is written beside it, on another connection, into the run's own row (committed at
-- once, seen by every server): `progress` is the phase and how many contracts of how many are
-- done and rows written, `progress_at` the last time the running server wrote it (also every
-- few seconds while a long statement runs). A run row still 运行中 whose `progress_at` has gone
-- quiet belongs to a server that stopped mid-run (its transaction rolled back): it is shown as
-- 中断 and no longer blocks the next run.
alter table day_end_runs add column progress jsonb, add column progress_at timestamptz;
alter table job_runs add column progress jsonb, add column progress_at timestamptz;
