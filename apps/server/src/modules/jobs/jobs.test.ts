import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { register } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { addDays } from '@portal/contract/plan/dates';
import { JOB_CODES, JOB_MENU, JOB_PATHS, type JobRunView, type JobView } from '@portal/contract/jobs';
import { button, menu } from '@portal/contract/menus';
import { MESSAGE_PATHS, type MessageView } from '@portal/contract/messages';
import { queryRows } from '../../platform/db/client';
import { shanghaiToday } from '../../platform/clock';
import { closeInterrupted, INTERRUPTED } from '../../platform/progress';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { SCHEDULER } from './routes';
import { JOB_RUN_ROWS } from './schema';

const api = servedPaths(JOB_PATHS);
const messagesApi = servedPaths(MESSAGE_PATHS);
const PW = 'Jobs@123456789';

let t: TestPortal;
let admin: TestClient;
let reader: TestClient;
let runner: TestClient;

const scheduler = (p: TestPortal) => p.portal.registries.get(SCHEDULER).scheduler!;
const jobOf = async (code: string) => (await admin.ok<JobView[]>(api.list)).find((j) => j.code === code)!;
const history = (code: string) => admin.ok<Page<JobRunView>>(api.runs, { code });

/** The runs counted by prom-client's default registry for a job and result. */
async function counted(job: string, result: string): Promise<number> {
  const metric = register.getSingleMetric('portal_job_runs_total');
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => v.labels.job === job && v.labels.result === result)?.value ?? 0;
}

beforeAll(async () => {
  t = await createTestPortal({ BACKUP_KEEP: '1' });
  admin = await t.login();
  await createUserWithCodes(t.database.db, 'jobs-reader', PW, [menu(JOB_MENU)]);
  await createUserWithCodes(t.database.db, 'jobs-runner', PW, [menu(JOB_MENU), button(JOB_MENU, 'run')]);
  reader = await t.login('jobs-reader', PW);
  runner = await t.login('jobs-runner', PW);
});
afterAll(() => t.close());

describe('定时任务', () => {
  it('lists every job with its schedule and next run; the screen needs its menu code', async () => {
    const list = await admin.ok<JobView[]>(api.list);
    expect(list.map((j) => j.code)).toEqual([...JOB_CODES]);
    for (const j of list) {
      expect(j.cron).toBe(j.defaultCron);
      expect(j.paused).toBe(false);
      expect(new Date(j.nextAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    }
    await createUserWithCodes(t.database.db, 'jobs-nobody', PW, []);
    const nobody = await t.login('jobs-nobody', PW);
    expect((await nobody.call(api.list)).status).toBe(401);
    expect((await nobody.call(api.runs, { code: 'dayEnd' })).status).toBe(401);
  });

  it('立即执行 needs its button code: refused without it, and nothing runs', async () => {
    expect((await reader.call(api.list)).status).toBe(200);
    const refused = await reader.call(api.run, { code: 'sessionCleanup' });
    expect(refused.status).toBe(401);
    expect((await history('sessionCleanup')).total).toBe(0);
    const run = await runner.ok<JobRunView>(api.run, { code: 'sessionCleanup' });
    expect(run).toMatchObject({
      job: 'sessionCleanup',
      trigger: 'manual',
      result: 'ok',
      startedByName: 'jobs-runner',
    });
    expect(run.detail).toMatch(/^删除\d+个会话$/);
    const after = await history('sessionCleanup');
    expect(after.list.map((r) => r.id)).toEqual([run.id]);
    expect((await jobOf('sessionCleanup')).lastRun?.id).toBe(run.id);
  });

  it('a failing run shows 失败 in the history, counts in the metrics and tells the administrators', async () => {
    const before = await counted('backup', 'failed');
    // The backup folder's place is taken by a file: the job cannot write (or read) its dumps.
    const dir = join(t.config.dataDir, 'backups');
    writeFileSync(dir, 'not a folder');
    try {
      const run = await admin.ok<JobRunView>(api.run, { code: 'backup' });
      expect(run.result).toBe('failed');
      expect(run.resultLabel).toBe('失败');
      expect(run.error).toBeTruthy();
      const latest = (await history('backup')).list[0]!;
      expect(latest).toMatchObject({ id: run.id, result: 'failed', resultLabel: '失败' });
      expect(await counted('backup', 'failed')).toBe(before + 1);
      const messages = await admin.ok<Page<MessageView>>(messagesApi.list, { unreadOnly: true });
      const told = messages.list.find((m) => m.kind === 'jobFailed' && m.docCode === 'backup');
      expect(told?.title).toContain('定时任务「数据备份」运行失败');
      // A user who is not an administrator is not told.
      const theirs = await runner.ok<Page<MessageView>>(messagesApi.list, {});
      expect(theirs.list.filter((m) => m.kind === 'jobFailed')).toEqual([]);
    } finally {
      rmSync(dir, { force: true });
    }
  });

  it('backs up the embedded database keeping the newest BACKUP_KEEP dumps, or checks the pg_dump schedule', async () => {
    const dir = join(t.config.dataDir, 'backups');
    if (t.database.kind !== 'pglite') {
      // On PostgreSQL the job checks the operator's pg_dump (docs/operations.md "Scheduled backups").
      const check = () => admin.ok<JobRunView>(api.run, { code: 'backup' });
      expect((await check()).error).toContain('不存在');
      mkdirSync(dir);
      expect((await check()).error).toContain('没有 pg_dump 备份');
      // The custom format's header is what marks a pg_dump; an old one fails the check.
      const dump = join(dir, 'office-2026-11-27.backup');
      writeFileSync(dump, 'PGDMP-custom-format');
      const old = (Date.now() - 30 * 3600_000) / 1000;
      utimesSync(dump, old, old);
      expect((await check()).error).toContain('已是30小时前的（超过26小时）');
      writeFileSync(join(dir, 'office-2026-11-28.backup'), 'PGDMP-custom-format');
      expect(await check()).toMatchObject({ result: 'ok', error: null });
      return;
    }
    for (let i = 0; i < 2; i++)
      expect((await admin.ok<JobRunView>(api.run, { code: 'backup' })).result).toBe('ok');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files.every((f) => /^portal-\d{8}-\d{9}\.tar\.gz$/.test(f))).toBe(true);
  });

  it('changes a schedule (checked, audited), pauses and resumes it', async () => {
    const bad = await admin.call(api.update, { code: 'logPurge', cron: '61 3 * * *' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('Cron表达式格式不正确');
    expect((await jobOf('logPurge')).cron).toBe('0 3 * * *');
    expect((await runner.call(api.update, { code: 'logPurge', cron: '0 4 * * *' })).status).toBe(401);

    await admin.ok(api.update, { code: 'logPurge', cron: '15 4 * * *' });
    const changed = await jobOf('logPurge');
    expect(changed.cron).toBe('15 4 * * *');
    // 04:15 in Asia/Shanghai is 20:15 UTC.
    expect(changed.nextAt).toMatch(/T20:15:00\.000Z$/);

    await admin.ok(api.setPaused, { code: 'logPurge', paused: true });
    expect(await jobOf('logPurge')).toMatchObject({ paused: true, nextAt: null });
    await admin.ok(api.setPaused, { code: 'logPurge', paused: false });
    expect((await jobOf('logPurge')).nextAt).toMatch(/T20:15:00\.000Z$/);

    const audit = await queryRows<{ action: string; detail: unknown }>(
      t.database.db,
      sql`select action, detail from audit_log where entity = 'job' and entity_code = 'logPurge' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['update', 'pause', 'resume']);
    expect(JSON.stringify(audit[0]!.detail)).toContain('15 4 * * *');
  });

  it('a tick runs a job whose time has come once, and moves its next time on', async () => {
    const due = '2026-01-01T00:00:00.000Z';
    await t.database.db.execute(
      sql`update jobs set next_at = ${due}::timestamptz where code = 'keyRotation'`,
    );
    const runs = await scheduler(t).tick();
    expect(runs.map((r) => [r.job, r.trigger, r.scheduledFor, r.result])).toEqual([
      ['keyRotation', 'schedule', due, 'ok'],
    ]);
    expect(new Date((await jobOf('keyRotation')).nextAt!).getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(await scheduler(t).tick()).toEqual([]);
    // A paused job's time never comes.
    await admin.ok(api.setPaused, { code: 'keyRotation', paused: true });
    await t.database.db.execute(
      sql`update jobs set next_at = ${due}::timestamptz where code = 'keyRotation'`,
    );
    expect(await scheduler(t).tick()).toEqual([]);
  });
});

describe('a job’s progress (docs/business-date.md "Progress")', () => {
  it('shows the running accrual’s phase on its run row, read from another request mid-run', async () => {
    const s = scheduler(t);
    const phases: string[] = [];
    let mid: JobRunView | undefined;
    s.progressOptions = {
      everyMs: 0,
      onWrite: async (p) => {
        phases.push(p.phase);
        // The barrier: the accrual's transaction is open. PostgreSQL: another connection and
        // request read the row; PGlite's one connection is the run's (nothing else reads meanwhile).
        if (p.phase === 'accrual' && !mid && onPostgres) mid = (await history('monthEndAccrual')).list[0];
      },
    };
    try {
      const run = await admin.ok<JobRunView>(api.run, { code: 'monthEndAccrual' });
      expect(run).toMatchObject({ result: 'ok', progress: null });
    } finally {
      s.progressOptions = {};
    }
    expect(phases.slice(0, 2)).toEqual(['waiting', 'accrual']);
    if (onPostgres)
      expect(mid).toMatchObject({ result: 'running', progress: { phase: 'accrual', done: 0, rows: 0 } });
  });

  it('reads a run its stopped server left 运行中 as interrupted, and runs the job again', async () => {
    await queryRows(
      t.database.db,
      sql`insert into job_runs (job, trigger, result, server, progress_at)
          values ('logPurge', 'manual', 'running', 'gone:1',
                  ${onPostgres ? sql`now() - interval '2 minutes'` : sql`null`})`,
    );
    // PGlite: one process owns the database; the server closes such rows when it starts.
    if (!onPostgres) await closeInterrupted(t.database.db, JOB_RUN_ROWS);
    const left = (await history('logPurge')).list[0]!;
    expect(left).toMatchObject({ result: 'failed', error: INTERRUPTED, server: 'gone:1' });
    expect(left.endedAt).not.toBeNull();
    expect((await admin.ok<JobRunView>(api.run, { code: 'logPurge' })).result).toBe('ok');
  });
});

describe('the scheduled day-end', () => {
  let cal: TestPortal;
  beforeAll(async () => {
    // No BUSINESS_DATE, nothing stored: the date follows the calendar.
    cal = await createTestPortal({ BUSINESS_DATE: '' });
  });
  afterAll(() => cal.close());

  it('catches up every day since the last completed day-end, then finds today done', async () => {
    const today = shanghaiToday();
    expect(cal.portal.clock.source()).toBe('calendar');
    await cal.database.db.execute(
      sql`insert into day_end_runs (business_date, trigger, state, ended_at, contracts, overdue_items, penalty_of_day, reminders_added)
          values (${addDays(today, -3)}::date, 'manual', 'done', now(), 0, 0, 0, 0)`,
    );
    const c = await cal.login();
    const run = await c.ok<JobRunView>(api.run, { code: 'dayEnd' });
    expect(run.result).toBe('ok');
    expect(run.detail).toBe(`运行3天日终（${addDays(today, -2)} 至 ${today}）`);
    const days = await queryRows<{ d: string; trigger: string }>(
      cal.database.db,
      sql`select business_date::text as d, trigger from day_end_runs where state = 'done' order by id`,
    );
    expect(days.map((r) => [r.d, r.trigger])).toEqual([
      [addDays(today, -3), 'manual'],
      [addDays(today, -2), 'catchUp'],
      [addDays(today, -1), 'catchUp'],
      [today, 'dateChange'],
    ]);
    const again = await c.ok<JobRunView>(api.run, { code: 'dayEnd' });
    expect(again.detail).toBe(`${today} 的日终已完成`);
  });

  it('leaves a set business date alone: the office ends its days by moving it', async () => {
    const c = await t.login();
    const run = await c.ok<JobRunView>(api.run, { code: 'dayEnd' });
    expect(run).toMatchObject({ result: 'ok', detail: '营业日由人工设置，日终随营业日变更运行' });
  });
});
