import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { BIZDATE_PATHS, type DayEndProgress, type DayEndRun } from '@portal/contract/bizdate';
import { progressText, type RunProgress } from '@portal/contract/jobs';
import { queryRows } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { closeInterrupted, INTERRUPTED } from '../../platform/progress';
import { listRuns, runDayEnd, runningDayEnd, runningHere } from './service';
import {
  createTestPortal,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { approvedContract, contractFixture, MONTHLY_RULE } from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { DAY_END_RUN_ROWS } from './schema';

/**
 * A day-end's progress while its one transaction runs (docs/business-date.md "Progress"): read
 * mid-run, at a barrier the run awaits, from outside the run's transaction; the run's own writes
 * stay unseen until it commits, and a failed run keeps none of them.
 */
let t: TestPortal;
let admin: TestClient;
const api = servedPaths(BIZDATE_PATHS);
const db = () => t.database.db;
const CONTRACTS = 3;
const count = async (what: ReturnType<typeof sql>) =>
  (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${what}`))[0]!.n;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  const checker = await addChecker(t);
  const f = await contractFixture(t, admin, checker, { limit: '9000000.00', rule: MONTHLY_RULE });
  await admin.ok(api.save, { businessDate: '2026-01-25' });
  for (let i = 0; i < CONTRACTS; i++) {
    const { bizCode } = await approvedContract(t, admin, checker, {
      fixture: f,
      over: { startDate: '2026-01-20', maturityDate: '2026-07-20' },
    });
    await disburse(admin, checker, bizCode, { valueDate: '2026-01-20' });
  }
});
afterAll(() => t.close());

describe('day-end progress', () => {
  it('is shown mid-run from outside the run’s transaction: phase, contracts done of all', async () => {
    const seen: RunProgress[] = [];
    let mid: { progress: RunProgress | null; accruals?: number; items?: number } | undefined;
    // 2026-03-01: the accrual of 02-28 (a voucher line pair per contract), then every contract's
    // items, one contract a step (slice 1), each step written (everyMs 0).
    const run = await runDayEnd(db(), '2026-03-01', 'manual', SYSTEM_ACTOR, {
      slice: 1,
      progress: {
        everyMs: 0,
        onWrite: async (p) => {
          seen.push(p);
          if (mid || p.phase !== 'overdue' || p.done !== 1) return;
          // The barrier: the run waits here, its transaction open, one contract of three done.
          if (onPostgres) {
            // Another connection of the pool, and another request (any server reads the row).
            const answered = await admin.ok<DayEndProgress>(api.progress);
            mid = {
              progress: answered.running?.progress ?? null,
              accruals: await count(sql`vouchers where doc_type = 'accrual'`),
              items: await count(sql`day_end_items where business_date = '2026-03-01'`),
            };
          } else {
            // PGlite: the one connection is the run's; the progress call answers from the process.
            mid = { progress: runningHere(db())?.progress ?? null };
          }
        },
      },
    });
    expect(run.state).toBe('done');
    expect(mid?.progress).toEqual({
      phase: 'overdue',
      done: 1,
      total: CONTRACTS,
      rows: 2 * 2 * CONTRACTS,
      date: '2026-03-01',
    });
    expect(progressText(mid!.progress!)).toBe('2026-03-01 正在计算逾期 1 / 3 份合同（已写入 12 行）');
    if (onPostgres) expect(mid).toMatchObject({ accruals: 0, items: 0 });
    // The phases in order: the accrual's contracts as its lines were written, then the day's own.
    const phases = [...new Set(seen.map((p) => p.phase))];
    expect(phases).toEqual([
      'waiting',
      'accrual',
      'reversal',
      'deferral',
      'overdue',
      'marks',
      'classify',
      'reminders',
      'collections',
      'guarantees',
      'keepLedger',
    ]);
    expect(
      seen.find((p) => p.phase === 'accrual' && p.total === CONTRACTS && p.done === CONTRACTS),
    ).toBeTruthy();
    expect(seen.filter((p) => p.phase === 'overdue').map((p) => p.done)).toEqual([0, 0, 1, 2, 3]);
    // Ended: nothing running; the row shows its counts, no progress.
    expect(await runningDayEnd(db())).toBeNull();
    expect(runningHere(db())).toBeNull();
    expect((await admin.ok<DayEndProgress>(api.progress)).running).toBeNull();
    const [row] = (await admin.ok<Page<DayEndRun>>(api.dayEndList, {})).list;
    expect(row).toMatchObject({ id: run.id, state: 'done', contracts: CONTRACTS, progress: null });
    expect(await count(sql`vouchers where doc_type = 'accrual'`)).toBe(2);
  });

  it('ends as failed when the run rolls back, keeping none of its writes', async () => {
    const before = {
      vouchers: await count(sql`vouchers`),
      items: await count(sql`day_end_items`),
      reminders: await count(sql`reminders`),
    };
    // 2026-04-01: the accrual of 03-31 is posted in the transaction, then the marks fail.
    const run = await runDayEnd(db(), '2026-04-01', 'manual', SYSTEM_ACTOR, {
      progress: {
        everyMs: 0,
        onWrite: async (p) => {
          if (p.phase === 'marks') throw new Error('写入逾期明细时出错（测试）');
        },
      },
    });
    expect(run).toMatchObject({ state: 'failed', error: '写入逾期明细时出错（测试）', progress: null });
    expect(run.endedAt).not.toBeNull();
    expect({
      vouchers: await count(sql`vouchers`),
      items: await count(sql`day_end_items`),
      reminders: await count(sql`reminders`),
    }).toEqual(before);
    expect(await runningDayEnd(db())).toBeNull();
    expect(runningHere(db())).toBeNull();
    // A second run of the date, unhindered, does the work.
    expect((await runDayEnd(db(), '2026-04-01', 'manual', SYSTEM_ACTOR)).state).toBe('done');
    expect(await count(sql`vouchers`)).toBeGreaterThan(before.vouchers);
  });

  it('does not say 运行中 forever for a run whose server stopped mid-run', async () => {
    // A row left 运行中 by a server killed mid-run (its transaction rolled back with it).
    const [left] = await queryRows<{ id: number }>(
      db(),
      sql`insert into day_end_runs (business_date, trigger, state, progress, progress_at)
          values ('2026-04-02', 'manual', 'running',
                  '{"phase":"overdue","done":5,"total":9,"rows":0,"date":"2026-04-02"}'::jsonb,
                  ${onPostgres ? sql`now() - interval '2 minutes'` : sql`null`})
          returning id::int as id`,
    );
    // PostgreSQL: its server has not written it for over a minute. PGlite: one process owns the
    // database, so a row 运行中 at start is a previous process's (closed when the server starts).
    if (!onPostgres) await closeInterrupted(db(), DAY_END_RUN_ROWS);
    expect(await runningDayEnd(db())).toBeNull();
    const [row] = (await listRuns(db(), { pageNum: 1, pageSize: 1 }, left!.id)).list;
    expect(row).toMatchObject({ state: 'failed', error: INTERRUPTED, progress: null });
    expect(row!.endedAt).not.toBeNull();
    // A live row (written just now) is running.
    if (onPostgres) {
      await db().execute(
        sql`update day_end_runs set state = 'running', ended_at = null, progress_at = now() where id = ${left!.id}`,
      );
      expect((await runningDayEnd(db()))?.progress).toMatchObject({ phase: 'overdue', done: 5, total: 9 });
      await db().execute(
        sql`update day_end_runs set progress_at = now() - interval '2 minutes' where id = ${left!.id}`,
      );
    }
  });
});
