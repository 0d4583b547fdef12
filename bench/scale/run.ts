/**
 * Ten times the portfolio (issue 42 §5): the same figures at scales 0.1, 1 and 10 in one run, each
 * against its kept PostgreSQL database (bench_scale0_1, bench_scale1, bench_scale10: seeded by
 * `npx tsx bench/seed/run.ts --scale 10 --keep`), the real server (bench/load/server.ts) started
 * per scale. Usage:
 *   npx tsx bench/scale/run.ts [--scales 0.1,1,10] [--require-all] [--seconds 10] [--calls 5]
 *     [--skip export,jobs,reports]
 * `--calls N`: timed calls of each report (after one unmeasured); `--skip`: leave the export, the
 * accrual and day-end, or the list windows and reports out (a shorter run on a loaded machine;
 * their panels then say not measured; `--skip export,reports` measures the two jobs alone).
 * A scale whose database is not seeded is skipped with a line saying so (a failure with
 * `--require-all`). Writes bench/results/scale.json and the chart bench/scale-chart.svg. Exits 1
 * when a call fails (non-2xx, `ok: false`, a timeout, a failed day-end or job), as bench/load/run.ts.
 */
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { HttpClient } from '../../apps/server/src/testing/http-client';
import { BIZDATE_PATHS, type DayEndProgress, type DayEndRun } from '@portal/contract/bizdate';
import { CLASS_PATHS } from '@portal/contract/classification';
import { JOB_PATHS, progressText, type JobRunView } from '@portal/contract/jobs';
import { LEDGER_PATHS } from '@portal/contract/ledger';
import { VOUCHER_PATHS } from '@portal/contract/voucher';
import { countsAt } from '../seed/seed';
import {
  checked,
  fail,
  failures,
  load,
  streamedExport,
  timedCalls,
  type ExportFigures,
  type Timed,
} from '../load/measure';
import { AS_OF, LIST_BODY, LIST_PATH, VIEW_PATHS } from '../load/scenarios';
import { freePort, PASSWORD, seededKeptDatabase, startServer } from '../load/server';
import { scaleChart, type Panel } from './chart';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SCALES = (arg('--scales') ?? '0.1,1,10').split(',');
const requireAll = process.argv.includes('--require-all');
/** Seconds of each window at 32 connections. */
const seconds = Number(arg('--seconds') ?? '10');
const skip = (arg('--skip') ?? '').split(',');
const calls = Number(arg('--calls') ?? '5');
/**
 * Without a day-end before the reports the 台账 and 五级分类 calls compute every contract (no date
 * is kept yet on a freshly seeded database): the figures before the kept path.
 */
const dayEndFirst = !process.argv.includes('--no-day-end');
const connections = 32;
/** The month end before the business date: 五级分类 on a past date, and the month-end accrual's. */
const PAST_MONTH_END = '2026-10-31';
const LIST_PAGE_5000 = { ...LIST_BODY, pageNum: 5000 };

/** A window at 32 connections: throughput and latency percentiles. */
interface Window {
  rps: number;
  calls: number;
  p50: number;
  p99: number;
  loadAverage: number;
}

/** A long job through the product's own entry: its time, the rows it wrote, and what its screen showed meanwhile. */
interface JobFigures {
  seconds: number;
  minutes: number;
  rows: number;
  rowsPerSecond: number;
  /** The portfolio's contracts per second (the target: 1,000,000 in under 10 minutes). */
  contractsPerSecond: number;
  /** What the product's progress call answered, sampled every 2 s while it ran. */
  progress: string[];
  detail: string;
  loadAverage: number;
}

interface ScaleFigures {
  scale: string;
  database: string;
  contracts: number;
  planItems: number;
  paidLines: number;
  voucherLines: number;
  databaseSize: string;
  /** The list windows and the reports (absent with `--skip reports`). */
  listPage1?: Window;
  listPage5000?: Window & { total: number };
  contractView?: Window;
  /** The office's day-end of the business date run before the reports (docs/ledger.md "Kept by date"). */
  dayEndBeforeReports?: JobFigures;
  ledgerPage?: Timed;
  classDistributionPast?: Timed;
  trialBalance?: Timed;
  ledgerExport?: ExportFigures & { rows: number; rowsPerSecond: number };
  monthEndAccrual?: JobFigures;
  dayEnd?: JobFigures;
}

/** One window at 32 connections, its answers checked (a bad one fails the run). */
async function window(name: string, base: string, requests: object[]): Promise<Window> {
  const { result: r } = await checked(name, { url: base, connections, duration: seconds, requests });
  const w = {
    rps: Math.round(r.requests.average),
    calls: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    loadAverage: load(),
  };
  console.info(
    `${name.padEnd(34)} ${w.rps} req/s  p50 ${w.p50} ms  p99 ${w.p99} ms  (load ${w.loadAverage})`,
  );
  return w;
}

/**
 * A POST that may run for many minutes (the day-end, a job run now, a report at ×10): node:http
 * without the 300-second header timeout of fetch. Answers the envelope's data; a non-200 or `ok: false` throws.
 */
function longCall<T>(base: string, path: string, body: unknown, auth: Record<string, string>): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/api${path}`,
      { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const r = JSON.parse(text) as { ok?: boolean; msg?: string; data?: T };
          if (res.statusCode !== 200 || r.ok !== true)
            reject(new Error(`${path}: ${res.statusCode} ${r.msg}`));
          else resolve(r.data as T);
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * Runs a long call while sampling what the product shows of it every 2 s (`progress`), each
 * distinct answer kept once with the second it was first seen.
 */
async function withProgress<T>(
  call: () => Promise<T>,
  progress: () => Promise<string>,
): Promise<{ value: T; seconds: number; seen: string[] }> {
  const seen: string[] = [];
  const t = performance.now();
  let running = true;
  const poll = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, 2000));
      if (!running) break;
      const shown = await progress().catch((err: unknown) => `progress call failed: ${String(err)}`);
      const line = `${((performance.now() - t) / 1000).toFixed(0)} s: ${shown}`;
      if (!seen.some((s) => s.endsWith(`: ${shown}`))) seen.push(line);
    }
  })();
  try {
    const value = await call();
    return { value, seconds: (performance.now() - t) / 1000, seen };
  } finally {
    running = false;
    await poll;
  }
}

/**
 * Puts the kept database back as the seed left it for what the bench's jobs wrote (the seed has
 * none of it): the month-end accrual's vouchers (计提, 冲回, 前置利息摊销) with their lines, the
 * period totals and counters they moved, and the day-end's reminders with their messages. So every
 * run measures the same work: the first day-end and accrual after the seed.
 */
async function resetJobs(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('begin');
    await c.query(`create temp table bench_gone on commit drop as
         select id, period from vouchers where doc_type in ('accrual', 'deferral')`);
    const gone = await c.query<{ period: string }>('select distinct period from bench_gone');
    const periods = gone.rows.map((r) => r.period);
    if (periods.length) {
      // The per-line trigger would walk the period's totals once a line; they are summed again below.
      await c.query('alter table voucher_lines disable trigger voucher_lines_roll');
      await c.query('delete from voucher_lines where voucher_id in (select id from bench_gone)');
      await c.query('alter table voucher_lines enable trigger voucher_lines_roll');
      await c.query('delete from vouchers where id in (select id from bench_gone)');
      await c.query('delete from voucher_account_periods where period = any($1)', [periods]);
      await c.query(
        `insert into voucher_account_periods (period, account_code, account_name, debit, credit, lines)
         select v.period, l.account_code, l.account_name, sum(l.debit), sum(l.credit), count(*)
           from voucher_lines l join vouchers v on v.id = l.voucher_id
          where v.period = any($1) and v.no is not null
          group by 1, 2, 3`,
        [periods],
      );
      await c.query(
        `update voucher_periods p set last_no = coalesce((select max(no) from vouchers v where v.period = p.period), 0)
          where p.period = any($1)`,
        [periods],
      );
    }
    await c.query(`delete from messages where doc_type = 'contract' and kind in ('dueSoon', 'overdue')`);
    await c.query('delete from reminders');
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  } finally {
    await c.end();
  }
}

async function one<T>(url: string, text: string, params: unknown[] = []): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows[0] as T;
  } finally {
    await c.end();
  }
}

async function measure(scale: string, database: string, url: string): Promise<ScaleFigures> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(port, url, scale, false);
  try {
    const client = new HttpClient(base);
    await client.login('admin', PASSWORD);
    const auth = { authorization: `Bearer ${client.token}` };
    const plain = (path: string, body: unknown) => ({
      method: 'POST' as const,
      path,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const sizes = await one<{
      contracts: number;
      items: number;
      lines: number;
      vlines: number;
      size: string;
    }>(
      url,
      `select (select count(*)::int from contracts) as contracts, (select count(*)::int from contract_plan_items) as items,
              (select count(*)::int from paid_lines) as lines, (select count(*)::int from voucher_lines) as vlines,
              pg_size_pretty(pg_database_size(current_database())) as size`,
    );
    console.info(
      `scale ${scale} (${database}, ${sizes.size}): ${sizes.contracts} contracts, ${sizes.items} plan items, ${sizes.lines} write-off lines, ${sizes.vlines} voucher lines`,
    );
    // The office's day-end of the business date, as every day: it keeps the 台账's figures of the
    // date and of the month end before it, which the 台账 and 五级分类 calls then read. Its accrual
    // and reminders are put back after it, as after the jobs below.
    let dayEndBeforeReports: JobFigures | undefined;
    if (dayEndFirst && !skip.includes('reports')) {
      await resetJobs(url);
      dayEndBeforeReports = await dayEnd(base, auth, sizes.contracts);
      await resetJobs(url);
      // A fresh sign-in: the session's envelope key lasts 10 minutes, less than a loaded ×10 day-end.
      await client.login('admin', PASSWORD);
      auth.authorization = `Bearer ${client.token}`;
    }
    const reports = skip.includes('reports') ? {} : await measureReports(base, client, plain, auth);
    const exported = skip.includes('export')
      ? undefined
      : await streamedExport('ledger export', base, LEDGER_PATHS.export, { asOf: AS_OF }, auth, server.pid!);
    const ledgerExport = exported && {
      ...exported,
      rows: sizes.contracts,
      rowsPerSecond: Math.round(sizes.contracts / exported.seconds),
    };
    const figures: ScaleFigures = {
      scale,
      database,
      contracts: sizes.contracts,
      planItems: sizes.items,
      paidLines: sizes.lines,
      voucherLines: sizes.vlines,
      databaseSize: sizes.size,
      dayEndBeforeReports,
      ...reports,
      ledgerExport,
    };
    if (!skip.includes('jobs')) {
      await resetJobs(url);
      figures.monthEndAccrual = await accrual(base, auth, url, sizes.contracts);
      figures.dayEnd = await dayEnd(base, auth, sizes.contracts);
      await resetJobs(url);
    }
    return figures;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

/** The list windows at 32 connections and the reports' timed calls. */
async function measureReports(
  base: string,
  client: HttpClient,
  plain: (path: string, body: unknown) => object,
  auth: Record<string, string>,
) {
  // Warm the pool, the plans and the cache alike at every scale (one call each, unmeasured).
  await client.ok(LIST_PATH, LIST_BODY);
  const page5000 = await client.ok<{ total: number }>(LIST_PATH, LIST_PAGE_5000);
  for (const p of VIEW_PATHS) await client.ok(p, {});
  const listPage1 = await window('list page 1', base, [plain(LIST_PATH, LIST_BODY)]);
  const listPage5000 = {
    ...(await window('list page 5,000', base, [plain(LIST_PATH, LIST_PAGE_5000)])),
    total: page5000.total,
  };
  const contractView = await window(
    'contract view with its plan',
    base,
    VIEW_PATHS.map((p) => plain(p, {})),
  );
  // Without fetch's 300 s header timeout: at ×10 on a loaded machine a ledger page may take minutes.
  const ledger = () => longCall(base, LEDGER_PATHS.list, { asOf: AS_OF, pageNum: 1, pageSize: 20 }, auth);
  const past = () => longCall(base, CLASS_PATHS.distribution, { asOf: PAST_MONTH_END }, auth);
  const trial = () => longCall(base, VOUCHER_PATHS.trial, { period: AS_OF.slice(0, 7) }, auth);
  await ledger();
  await past();
  await trial();
  const ledgerPage = await timedCalls('ledger page with totals', calls, ledger);
  const classDistributionPast = await timedCalls(`五级分类 on ${PAST_MONTH_END}`, calls, past);
  const trialBalance = await timedCalls('trial balance', calls, trial);
  return { listPage1, listPage5000, contractView, ledgerPage, classDistributionPast, trialBalance };
}

const jobFigures = (
  name: string,
  run: { seconds: number; seen: string[] },
  rows: number,
  contracts: number,
  detail: string,
): JobFigures => {
  const out = {
    seconds: +run.seconds.toFixed(1),
    minutes: +(run.seconds / 60).toFixed(2),
    rows,
    rowsPerSecond: Math.round(rows / run.seconds),
    contractsPerSecond: Math.round(contracts / run.seconds),
    progress: run.seen,
    detail,
    loadAverage: load(),
  };
  console.info(
    `${name.padEnd(34)} ${out.minutes} min  ${rows} rows (${out.rowsPerSecond}/s)  ${detail}\n    progress shown: ${out.progress.join(' | ') || '(nothing)'}`,
  );
  return out;
};

/**
 * 月末计提 through the product's job (定时任务 monthEndAccrual, 立即执行): at the business date
 * 2026-11-20 it accrues the month end 2026-10-31 (with its reversal dated 11-01) and recognises its
 * 前置利息. Rows: the voucher lines it posted. Progress: the job's run row on 定时任务 (runs list).
 */
async function accrual(base: string, auth: Record<string, string>, url: string, contracts: number) {
  const client = new HttpClient(base);
  client.token = auth.authorization!.slice('Bearer '.length);
  const run = await withProgress(
    () => longCall<JobRunView>(base, JOB_PATHS.run, { code: 'monthEndAccrual' }, auth),
    async () => {
      const r = await client.ok<{ list: JobRunView[] }>(`/api${JOB_PATHS.runs}`, {
        code: 'monthEndAccrual',
        pageNum: 1,
        pageSize: 1,
      });
      const last = r.list[0];
      if (!last) return 'no run listed';
      const shown = last.progress ? progressText(last.progress) : last.detail;
      return `${last.resultLabel}${shown ? ` ${shown}` : ''}`;
    },
  );
  if (run.value.result !== 'ok')
    fail(`month-end accrual: ${run.value.resultLabel} ${(run.value.error ?? '').slice(0, 300)}`);
  const { lines } = await one<{ lines: number }>(
    url,
    `select count(*)::int as lines from voucher_lines l join vouchers v on v.id = l.voucher_id
      where v.doc_type in ('accrual', 'deferral')`,
  );
  return jobFigures(
    'month-end accrual (job)',
    run,
    lines,
    contracts,
    run.value.detail ?? run.value.error ?? '',
  );
}

/** 日终 through 营业日管理's 重新运行日终 (dayEnd/run); progress: its dayEnd/progress call. */
async function dayEnd(base: string, auth: Record<string, string>, contracts: number) {
  const client = new HttpClient(base);
  client.token = auth.authorization!.slice('Bearer '.length);
  const run = await withProgress(
    () => longCall<DayEndRun>(base, BIZDATE_PATHS.runDayEnd, {}, auth),
    async () => {
      const p = await client.ok<DayEndProgress>(`/api${BIZDATE_PATHS.progress}`, {});
      if (!p.running) return 'nothing running';
      return p.running.progress
        ? progressText(p.running.progress)
        : `running since ${p.running.startedAt} (contracts ${p.running.contracts}, items ${p.running.overdueItems})`;
    },
  );
  if (run.value.state !== 'done')
    fail(`day-end: ${run.value.state} ${(run.value.error ?? '').slice(0, 300)}`);
  const r = run.value;
  return jobFigures(
    'day-end',
    run,
    r.overdueItems + r.remindersAdded,
    contracts,
    `${r.state}${r.error ? ` (${r.error.slice(0, 300)})` : ''}: ${r.contracts} contracts with items due or overdue, ${r.overdueItems} overdue items, ${r.remindersAdded} reminders`,
  );
}

/** One panel per figure, x the scale (bench/README.md "Ten times the portfolio"). */
function panels(rs: ScaleFigures[]): Panel[] {
  const at = (pick: (r: ScaleFigures) => number | undefined) =>
    rs.flatMap((r) => {
      const v = pick(r);
      return v === undefined || Number.isNaN(v) ? [] : [{ scale: Number(r.scale), value: v }];
    });
  // An interactive call: within 2 s.
  const call = (title: string, pick: (r: ScaleFigures) => number | undefined) => ({
    title,
    unit: 'ms',
    points: at(pick),
    limit: 2000,
  });
  return [
    call('list page 1, p99 (32 conn.)', (r) => r.listPage1?.p99),
    call('list page 5,000, p99 (32 conn.)', (r) => r.listPage5000?.p99),
    call('contract view, p99 (32 conn.)', (r) => r.contractView?.p99),
    call('台账 page with totals, median', (r) => r.ledgerPage?.medianMs),
    call('五级分类 on 2026-10-31, median', (r) => r.classDistributionPast?.medianMs),
    call('试算平衡, median', (r) => r.trialBalance?.medianMs),
    { title: '台账 export, whole file', unit: 's', points: at((r) => r.ledgerExport?.seconds) },
    {
      title: 'export, µs per row',
      unit: 'µs',
      points: at((r) => r.ledgerExport && (r.ledgerExport.seconds * 1e6) / r.ledgerExport.rows),
    },
    { title: 'export, first byte', unit: 's', points: at((r) => r.ledgerExport?.firstByteSeconds) },
    { title: 'export, server peak RSS', unit: 'MB', points: at((r) => r.ledgerExport?.peakRssMb) },
    {
      title: 'month-end accrual (job)',
      unit: 'min',
      points: at((r) => r.monthEndAccrual?.minutes),
      limit: 10,
    },
    { title: 'day-end (日终)', unit: 'min', points: at((r) => r.dayEnd?.minutes), limit: 10 },
  ];
}

const results: ScaleFigures[] = [];
const skipped: string[] = [];
const loads: number[] = [];
const sampler = setInterval(() => loads.push(+loadavg()[0]!.toFixed(1)), 5000);
const started = new Date();
try {
  for (const scale of SCALES) {
    const kept = await seededKeptDatabase(scale);
    if (!kept.url) {
      const why = `scale ${scale}: ${kept.name} is not seeded with this seed (npx tsx bench/seed/run.ts --scale ${scale} --keep); skipped`;
      skipped.push(why);
      if (requireAll) fail(why);
      else console.warn(why);
      continue;
    }
    const t = performance.now();
    try {
      results.push(await measure(scale, kept.name, kept.url));
    } catch (err) {
      fail(`scale ${scale}: the run stopped: ${err instanceof Error ? err.message : String(err)}`);
    }
    console.info(`scale ${scale} measured in ${((performance.now() - t) / 60_000).toFixed(1)} min`);
  }
} finally {
  clearInterval(sampler);
}
const report = {
  date: started.toISOString(),
  minutes: +((Date.now() - started.getTime()) / 60_000).toFixed(1),
  loadAverage: {
    min: Math.min(...loads),
    max: Math.max(...loads),
    mean: +(loads.reduce((s, l) => s + l, 0) / loads.length).toFixed(1),
  },
  seededRows: Object.fromEntries(SCALES.map((s) => [s, countsAt(Number(s))])),
  results,
  skipped,
  failures,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/scale.json', JSON.stringify(report, null, 2));
if (results.length)
  writeFileSync(
    'bench/scale-chart.svg',
    scaleChart(
      panels(results),
      `${report.date.slice(0, 16)} UTC, load average ${report.loadAverage.min}–${report.loadAverage.max}`,
    ),
  );
console.info(
  `bench/results/scale.json${results.length ? ', bench/scale-chart.svg' : ''} written (${report.minutes} min)`,
);
if (failures.length) {
  console.error(`\n${failures.length} check(s) failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  process.exitCode = 1;
}
