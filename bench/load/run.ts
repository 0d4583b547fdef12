import Decimal from 'decimal.js';
/**
 * Load scenarios against a real server on loopback. Usage: tsx bench/load/run.ts
 * [--scale small|1] [--only reports]. PostgreSQL at BENCH_DATABASE_URL (default the machine's, a
 * fresh database portal_bench), or PGlite with --pglite. `--only reports` runs only scenario 8
 * (the finance outputs). `--reuse` serves the PostgreSQL database portal_bench a previous run seeded at
 * the same scale, without dropping or seeding it (for measuring one change after another).
 * `--keep` uses a database kept between runs (bench_scale1 at scale 1, bench_small otherwise): seeded
 * on the first run, served as it is by every later run with the same seed (bench/README.md).
 * `--only envelope` runs only scenarios 3 and 4 (the envelope's ratios). Writes
 * bench/results/load-<database>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import type { HttpClient } from '../../apps/server/src/testing/http-client';
import { NodeEnvelope } from '../../apps/server/src/testing/node-envelope';
import { BANK_PATHS } from '@portal/contract/bank';
import { CLASS_PATHS } from '@portal/contract/classification';
import { COMPANY_PATHS } from '@portal/contract/company';
import { INCOME_PATHS, PAID_PATHS, RECONCILE_PATHS, type ValidPlan } from '@portal/contract/accounts';
import { LEDGER_PATHS } from '@portal/contract/ledger';
import { VOUCHER_PATHS } from '@portal/contract/voucher';
import {
  AS_OF,
  DASHBOARD_CALLS,
  FLOOR_PATH,
  LIST_BODY,
  LIST_BODY_PAGE_500,
  LIST_PATH,
  STATEMENTS_PATH,
  RUNTIME_PATH,
  VIEW_PATHS,
} from './scenarios';
import { checked, fail, failures, NOT_OK, streamedExport, timedCalls, type ExportFigures } from './measure';
import {
  freePort,
  freshDatabase,
  keptDatabase,
  markSeeded,
  rssMb,
  signedInAdmin,
  startServer,
} from './server';

const scale = process.argv.includes('1') ? 'full' : 'small';
/** The seeded portfolio's scale: 1 is 100,000 contracts and 1,200,000 plan items. */
const seedScale = scale === 'full' ? '1' : '0.05';
const usePglite = process.argv.includes('--pglite');
/** Unmeasured seconds per compared scenario, and the interleaved rounds that share `duration`. */
const warmup = scale === 'full' ? 4 : 2;
const roundsArg = process.argv.indexOf('--rounds');
/** `--rounds N`: more interleaved rounds (each `duration` / N long) for a steadier ratio on a noisy machine. */
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : scale === 'full' ? 4 : 2;
const duration = (scale === 'full' ? 20 : 6) * (roundsArg > 0 ? ROUNDS / (scale === 'full' ? 4 : 2) : 1);
/** Calls per second no scenario here reaches on this machine (sealed calls are made ahead for it). */
const MAX_RATE = 4000;
const connections = 32;
const onlyReports = process.argv.includes('reports');
/** `--only write-offs`: scenario 5 alone (issue 42 §3), `--seconds N` long (default `duration`). */
const onlyWriteOffs = process.argv.includes('write-offs');
const secondsArg = process.argv.indexOf('--seconds');
const writeOffSeconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : duration;
/** `--only envelope`: scenarios 3 and 4 alone (the floor and the list with and without the envelope). */
const onlyEnvelope = process.argv.includes('envelope');
const reuse = process.argv.includes('--reuse');
const keep = process.argv.includes('--keep') && !usePglite;

interface Outcome {
  scenario: string;
  rps: number;
  /** Calls answered in the window. */
  calls: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Answers with a 2xx status whose body says `ok: false`. */
  notOk: number;
  /** Non-2xx answers the scenario expects (scenario 5: a write-off beyond an incoming's balance). */
  expected: number;
  /**
   * Scenarios 3 and 4: CPU ms per answered call of the server process and its PostgreSQL backends
   * (`cpuByPid`), a cost that the machine's other load does not move as much as throughput.
   */
  cpuMsPerCall?: number;
  /** Scenarios 3 and 4: database statements a call, by the route the server counted them under. */
  statementsPerCall?: Record<string, number>;
}

/**
 * CPU time (ms, user + system) so far of the server process and, on PostgreSQL, of each backend
 * serving its database (read from /proc), by process id.
 */
let cpuByPid: () => Promise<Map<number, number>> = async () => new Map();

/**
 * CPU spent since `before` (a cpuByPid snapshot): each process's growth, a process that started
 * meanwhile counted whole. A backend that ended meanwhile drops out with its share of the window
 * (an undercount). Summing the processes' totals instead, as before 2026-11-29 22:50, subtracted
 * the whole life's CPU of a pool connection that closed during the window, and one round of the
 * fresh key read 0.255 ms a call against 2.4 ms for the others (bench/README.md "The envelope's cost").
 */
async function cpuSince(before: Map<number, number>, only?: (pid: number) => boolean): Promise<number> {
  let ms = 0;
  for (const [pid, now] of await cpuByPid()) if (!only || only(pid)) ms += now - (before.get(pid) ?? 0);
  return ms;
}
/** The server process's id (cpuSince's split of the server from its database backends). */
let serverPid = 0;
/** Undefined once the process has ended. */
function procCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

async function run(
  name: string,
  opts: autocannon.Options,
  expect?: (status: number, body: string) => boolean,
): Promise<Outcome> {
  const { result: r, notOk, expected } = await checked(name, { connections, duration, ...opts }, expect);
  const o = {
    scenario: name,
    rps: Math.round(r.requests.average),
    calls: r.requests.total,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    notOk,
    expected,
  };
  console.info(
    `${name.padEnd(34)} ${String(o.rps).padStart(7)} req/s  p50 ${o.p50} ms  p97.5 ${o.p97_5} ms  p99 ${o.p99} ms  non2xx ${o.non2xx}${expected ? ` (${expected} expected)` : ''}  errors ${o.errors}  timeouts ${o.timeouts}  ok:false ${notOk}`,
  );
  return o;
}

/**
 * Scenarios 3 and 4 are compared by ratios, so each runs under the same conditions: all are
 * warmed up first (JIT, plan cache, buffer cache, the pool's connections), then measured in
 * interleaved rounds (A B C D, D C B A, …) so that drift on a noisy machine falls on each alike.
 * Throughput is the mean over rounds, latencies the median of the rounds' percentiles.
 */
async function compareLists(
  scenarios: [string, (seconds: number) => autocannon.Options][],
): Promise<Outcome[]> {
  for (const [name, options] of scenarios)
    await checked(`${name} (warm-up)`, { connections, ...options(warmup), duration: warmup });
  const rounds: Outcome[][] = scenarios.map(() => []);
  // Each scenario's database statements a call (machine-independent), counted by the server per
  // route and read after each round, outside the window measured (the warm-ups' are dropped here).
  const statements: StatementCounts[] = scenarios.map(() => ({}));
  await statementsSince(base);
  for (let round = 0; round < ROUNDS; round++) {
    const order = scenarios.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const [name, options] = scenarios[i]!;
      const seconds = duration / ROUNDS;
      const cpuBefore = await cpuByPid();
      const o = await run(`${name} (round ${round + 1})`, { ...options(seconds), duration: seconds });
      o.cpuMsPerCall = o.calls ? (await cpuSince(cpuBefore)) / o.calls : 0;
      rounds[i]!.push(o);
      for (const [route, r] of Object.entries(await statementsSince(base))) {
        const sum = (statements[i]![route] ??= { requests: 0, statements: 0, texts: {} });
        sum.requests += r.requests;
        sum.statements += r.statements;
        for (const [text, n] of Object.entries(r.texts)) sum.texts[text] = (sum.texts[text] ?? 0) + n;
      }
    }
  }
  return scenarios.map(([name], i) => {
    const runs = rounds[i]!;
    const median = (pick: (o: Outcome) => number) => {
      const v = runs.map(pick).sort((a, b) => a - b);
      const mid = v.length >> 1;
      return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
    };
    const o: Outcome = {
      scenario: name,
      rps: Math.round(runs.reduce((sum, r) => sum + r.rps, 0) / runs.length),
      calls: runs.reduce((sum, r) => sum + r.calls, 0),
      cpuMsPerCall: +(
        runs.reduce((sum, r) => sum + r.cpuMsPerCall! * r.calls, 0) /
        runs.reduce((sum, r) => sum + r.calls, 0)
      ).toFixed(3),
      p50: median((r) => r.p50),
      p90: median((r) => r.p90),
      p97_5: median((r) => r.p97_5),
      p99: median((r) => r.p99),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
      notOk: runs.reduce((sum, r) => sum + r.notOk, 0),
      expected: runs.reduce((sum, r) => sum + r.expected, 0),
    };
    o.statementsPerCall = Object.fromEntries(
      Object.entries(statements[i]!).map(([route, r]) => [route, +(r.statements / r.requests).toFixed(2)]),
    );
    console.info(
      `${name.padEnd(34)} ${String(o.rps).padStart(7)} req/s  p50 ${o.p50} ms  p99 ${o.p99} ms  CPU ${o.cpuMsPerCall} ms a call (over ${ROUNDS} rounds)\n${statementReport(statements[i]!)}`,
    );
    return o;
  });
}

/**
 * Scenario 3 is a floor only if it answers what the product answers: 200, `ok`, and the same page
 * (total and rows) as the product's list for the same body.
 */
async function floorMatchesProduct(client: HttpClient, base: string): Promise<void> {
  type Page = { total: number; list: { bizCode: string }[] };
  const res = await fetch(`${base}${FLOOR_PATH}`, { method: 'POST' });
  const floor = (await res.json().catch(() => ({}))) as { ok?: boolean; data?: Page };
  const product = await client.ok<Page>(LIST_PATH, LIST_BODY);
  const rows = (p: Page | undefined) => JSON.stringify(p && [p.total, p.list.map((r) => r.bizCode)]);
  if (res.status !== 200 || floor.ok !== true) fail(`floor: answered ${res.status}, ok ${String(floor.ok)}`);
  else if (rows(floor.data) !== rows(product))
    fail(`floor: its page ${rows(floor.data)} is not the product's ${rows(product)}`);
}

/** Scenario 5's own figures (beyond autocannon's), filled by writeOffContention. */
let contention: Record<string, unknown> = {};
let exportRun: ExportFigures | undefined;
let reportRun: Record<string, unknown> = {};

/**
 * What the server's connections wait on while scenario 5 runs (PostgreSQL only): pg_stat_activity
 * sampled every 20 ms, each active statement counted by its wait event and its first words, and
 * each open transaction waiting for the server's next statement by its last one. A
 * profile of where an approval's time goes, not a figure to compare across runs.
 */
function lockSampler(url: string): { stop: () => Promise<string> } {
  const c = new pg.Client({ connectionString: url });
  const seen = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    await c.connect();
    while (running) {
      const r = await c.query<{ w: string; q: string }>(
        `select case when state = 'idle in transaction' then 'in transaction, waiting on the app'
                     else coalesce(wait_event_type || ':' || wait_event, 'on CPU') end as w,
                regexp_replace(left(query, 90), '\\s+', ' ', 'g') as q
           from pg_stat_activity
          where datname = current_database() and state in ('active', 'idle in transaction')
            and pid <> pg_backend_pid()`,
      );
      samples++;
      for (const row of r.rows) {
        const key = `${row.w.padEnd(34)} ${row.q}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop.catch(() => undefined);
      await c.end();
      return [...seen]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([k, v]) => `    ${String(v).padStart(6)}  ${k}`)
        .concat(`    (${samples} samples)`)
        .join('\n');
    },
  };
}

type StatementCounts = Record<
  string,
  { requests: number; statements: number; texts: Record<string, number> }
>;

/** The bench server's statements per route since the last call (bench-server.ts), and a reset. */
/** The bench server's GC pauses, event-loop delay and pool queue since the last call (and reset). */
async function runtimeSince(base: string): Promise<unknown> {
  const res = await fetch(`${base}${RUNTIME_PATH}`, { method: 'POST' });
  return ((await res.json()) as { data: unknown }).data;
}

async function statementsSince(base: string): Promise<StatementCounts> {
  const res = await fetch(`${base}${STATEMENTS_PATH}`, { method: 'POST' });
  return ((await res.json()) as { data: StatementCounts }).data;
}

/** Each route's statements per request, and the statements of each by their first words. */
function statementReport(counts: StatementCounts): string {
  return Object.entries(counts)
    .map(([route, r]) => {
      const per = (n: number) => (n / r.requests).toFixed(2).padStart(6);
      const texts = Object.entries(r.texts).map(([text, n]) => `      ${per(n)}  ${text}`);
      return [`    ${route}: ${r.requests} requests, ${per(r.statements)} statements each`, ...texts].join(
        '\n',
      );
    })
    .join('\n');
}

/**
 * Scenario 5's voucher numbers (issue 42 §3, docs/accounting.md "Numbers"): each period's numbers
 * are 1..N, unique and gap-free, none missing, and the period's counter is at N. Answers one line
 * per period that breaks it (empty when every period holds), and the periods read.
 */
async function voucherNumberGaps(url: string): Promise<{ periods: number; broken: string[] }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{
      period: string;
      n: number;
      distinct_no: number;
      lo: number | null;
      hi: number | null;
      unnumbered: number;
      last_no: number | null;
    }>(
      `select v.period, count(*)::int as n, count(distinct v.no)::int as distinct_no, min(v.no) as lo,
              max(v.no) as hi, count(*) filter (where v.no is null)::int as unnumbered, p.last_no
         from vouchers v left join voucher_periods p on p.period = v.period
        group by v.period, p.last_no order by v.period`,
    );
    const broken = r.rows
      .filter(
        (p) => p.unnumbered > 0 || p.distinct_no !== p.n || p.lo !== 1 || p.hi !== p.n || p.last_no !== p.n,
      )
      .map(
        (p) =>
          `${p.period}: ${p.n} vouchers, ${p.distinct_no} distinct numbers from ${p.lo} to ${p.hi}, ${p.unnumbered} without a number, counter at ${p.last_no}`,
      );
    return { periods: r.rows.length, broken };
  } finally {
    await c.end();
  }
}

/**
 * Scenario 5: 32 connections each saving a write-off of 1.00 against one of 100 incomings of
 * 50.00 (so they run dry mid-run) and approving it at once; afterwards no incoming may hold more
 * allocated than it received, and the reconciliation must balance.
 */
async function writeOffContention(
  client: HttpClient,
  base: string,
  auth: Record<string, string>,
  databaseUrl: string | undefined,
): Promise<Outcome> {
  const bank = await client.ok<{ bizCode: string }>(`/api${BANK_PATHS.save}`, {
    ownerType: 'self',
    bankCode: '102',
    branchName: '压测支行',
    accountName: '压测保理有限公司',
    accountNo: `6222${Date.now()}`,
    purpose: 'collect',
  });
  const incomes: string[] = [];
  for (let i = 0; i < 100; i++) {
    const s = await client.ok<{ fiidBizCode: string }>(`/api${INCOME_PATHS.saveBaseInfo}`, {
      bankBizCode: bank.bizCode,
      payerName: '压测付款人',
      amount: '50.00',
      valueDate: AS_OF,
      serialNo: `BENCH-${Date.now()}-${i}`,
      submit: true,
    });
    await client.ok(`/api${INCOME_PATHS.audit}`, {}, { fiidBizCode: s.fiidBizCode });
    incomes.push(s.fiidBizCode);
  }
  const page = await client.ok<{ list: { bizCode: string }[] }>(LIST_PATH, {
    pageNum: 1,
    pageSize: 100,
    state: 'approved',
    status: 'effective',
  });
  const targets: { cont: string; itemId: number }[] = [];
  for (const c of page.list) {
    const plan = await client.ok<ValidPlan>(`/api${PAID_PATHS.getValidPlanPaid}`, undefined, {
      contBizCode: c.bizCode,
      paidDate: AS_OF,
    });
    const item = plan.items.find((i) => new Decimal(i.open.PRINCIPAL).gte(100));
    if (item) targets.push({ cont: c.bizCode, itemId: item.itemId });
  }
  let n = 0;
  const json = { ...auth, 'content-type': 'application/json' };
  // An incoming spent to its last cent refuses the next write-off (409) at its save, or at its
  // approval when another approval took the balance in between: the guard under test, not a
  // failure. After a refused save the approval is not sent (a falsy request makes autocannon
  // start over).
  const spent = (status: number, body: string) =>
    status === 409 && (body.includes('超过来款可核销余额') || body.includes('来款可核销余额不足'));
  // Every request is accounted for (issue 42 §3): sent, and answered by outcome — approved, or
  // refused with its reason (the answer's status and message), counted apart.
  const sent = { save: 0, approval: 0 };
  const outcomes = new Map<string, number>();
  const tally = (step: string, status: number, body: string) => {
    let msg = '';
    try {
      msg = (JSON.parse(body) as { msg?: string }).msg ?? '';
    } catch {
      msg = body.slice(0, 80);
    }
    const key = status === 200 && !NOT_OK.test(body) ? `${step}: ok` : `${step}: ${status} ${msg}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  };
  await statementsSince(base);
  await runtimeSince(base);
  const locks = databaseUrl ? lockSampler(databaseUrl) : undefined;
  const cpuBefore = await cpuByPid();
  const outcome = await run(
    'write-off save + approve, 100 incomings',
    {
      url: base,
      duration: writeOffSeconds,
      requests: [
        {
          method: 'POST',
          path: `/api${PAID_PATHS.savePlanPaidInfo}`,
          setupRequest: (req) => {
            n++;
            sent.save++;
            const t = targets[n % targets.length]!;
            return {
              ...req,
              headers: json,
              body: JSON.stringify({
                fiidBizCode: incomes[(n * 7) % incomes.length],
                contBizCode: t.cont,
                paidDate: AS_OF,
                kind: 'manual',
                lines: [{ itemId: t.itemId, component: 'PRINCIPAL', amount: '1.00' }],
                submit: true,
              }),
            };
          },
          onResponse: (status, body, context) => {
            tally('save', status, body);
            const r = JSON.parse(body) as { status: number; data?: { paidBizCode: string } };
            (context as { code?: string }).code = r.status === 200 ? r.data!.paidBizCode : '';
          },
        },
        {
          method: 'POST',
          setupRequest: (req, context) => {
            const { code } = context as { code?: string };
            if (!code) return undefined as unknown as autocannon.Request;
            sent.approval++;
            return {
              ...req,
              path: `/api${PAID_PATHS.audit}?paidBizCode=${code}`,
              headers: json,
              body: '{}',
            };
          },
          onResponse: (status, body) => tally('approval', status, body),
        },
      ],
    },
    spent,
  );
  // The server's and its backends' CPU over the window, read as autocannon stops (the settling
  // reads below are not in it): per answered approval, each with its save, a cost the machine's
  // other load moves less than throughput.
  const cpuWindow = await cpuSince(cpuBefore);
  const cpuServer = await cpuSince(cpuBefore, (pid) => pid === serverPid);
  const lockWaits = await locks?.stop();
  const serverRuntime = await runtimeSince(base);
  // Counted by the server once nothing moves any more: calls still in flight when autocannon
  // stops complete after it, so the figures are read until the count of approved write-offs is
  // the same before and after the incomings were read.
  const countApproved = async () =>
    (
      await client.ok<{ total: number }>(`/api${PAID_PATHS.list}`, {
        state: 'approved',
        paidDateFrom: AS_OF,
        paidDateTo: AS_OF,
        pageSize: 1,
      })
    ).total;
  let overAllocated = 0;
  let allocated = new Decimal(0);
  let approved = -1;
  for (let settled = false, tries = 0; !settled && tries < 20; tries++) {
    if (tries > 0) await new Promise((r) => setTimeout(r, 500));
    const before = await countApproved();
    overAllocated = 0;
    allocated = new Decimal(0);
    for (const code of incomes) {
      const v = await client.ok<{ amount: string; allocated: string }>(
        `/api${INCOME_PATHS.viewBaseInfo}`,
        undefined,
        { fiidBizCode: code },
      );
      if (new Decimal(v.allocated).gt(v.amount)) overAllocated++;
      allocated = allocated.plus(v.allocated);
    }
    approved = await countApproved();
    settled = approved === before;
  }
  // Read once nothing moves: the calls in flight at the stop have finished their statements (the
  // settling reads above are counted under their own routes).
  const statements = await statementsSince(base);
  const rec = await client.ok<{ balanced: boolean }>(`/api${RECONCILE_PATHS.reconcile}`, {
    dateFrom: AS_OF,
    dateTo: AS_OF,
  });
  const answered = (step: string) =>
    [...outcomes].filter(([k]) => k.startsWith(`${step}:`)).reduce((t, [, c]) => t + c, 0);
  const approvedAnswers = outcomes.get('approval: ok') ?? 0;
  const accounting = {
    seconds: writeOffSeconds,
    saves: { sent: sent.save, answered: answered('save'), unansweredAtStop: sent.save - answered('save') },
    approvals: {
      sent: sent.approval,
      answered: answered('approval'),
      unansweredAtStop: sent.approval - answered('approval'),
    },
    byOutcome: Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])),
    approvalsPerSecond: +(approvedAnswers / writeOffSeconds).toFixed(1),
    // Server process and its PostgreSQL backends (PGlite: the server alone, its database in it).
    cpuMsPerApproval: +(cpuWindow / Math.max(approvedAnswers, 1)).toFixed(2),
    cpuMsPerRequest: +(cpuWindow / Math.max(answered('save') + answered('approval'), 1)).toFixed(2),
    // The same, the server process alone (the rest is its PostgreSQL backends).
    serverCpuMsPerRequest: +(cpuServer / Math.max(answered('save') + answered('approval'), 1)).toFixed(2),
  };
  console.info(`  every request: ${JSON.stringify(accounting, null, 2).replace(/\n/g, '\n  ')}`);
  if (lockWaits) console.info(`  what the server's connections waited on (samples):\n${lockWaits}`);
  console.info(`  the server's runtime over the window: ${JSON.stringify(serverRuntime)}`);
  console.info(`  database statements per request (machine-independent):\n${statementReport(statements)}`);
  // The server's count of approved write-offs is the answered approvals plus those of the
  // approvals still in flight when the window closed (never more, never fewer than answered).
  if (approved < approvedAnswers || approved > approvedAnswers + accounting.approvals.unansweredAtStop)
    fail(
      `write-off contention: ${approved} approved by the server, ${approvedAnswers} answered approved, ${accounting.approvals.unansweredAtStop} in flight at the stop`,
    );
  contention = {
    ...accounting,
    lockWaits,
    serverRuntime,
    statementsPerRequest: Object.fromEntries(
      Object.entries(statements).map(([route, r]) => [route, +(r.statements / r.requests).toFixed(2)]),
    ),
    approved,
    allocated: allocated.toFixed(2),
    // Each approved write-off allocates exactly 1.00.
    expectedAllocated: new Decimal(approved).toFixed(2),
    overAllocatedIncomings: overAllocated,
    reconciliationBalanced: rec.balanced,
  };
  console.info(
    `  approved ${approved} write-offs; allocated ${allocated.toFixed(2)} of 5000.00; over-allocated incomings: ${overAllocated}; reconciliation balanced: ${rec.balanced}; refused as spent: ${outcome.expected}`,
  );
  const name = 'write-off contention';
  if (approved === 0) fail(`${name}: no write-off was approved`);
  if (!allocated.eq(approved))
    fail(`${name}: ${allocated.toFixed(2)} allocated for ${approved} approved write-offs of 1.00`);
  if (overAllocated) fail(`${name}: ${overAllocated} incomings hold more allocated than they received`);
  if (!rec.balanced) fail(`${name}: the reconciliation does not balance`);
  // Read once nothing moves, like the figures above (PostgreSQL: PGlite's database is the server's own).
  if (databaseUrl) {
    const numbers = await voucherNumberGaps(databaseUrl);
    contention.voucherNumbers = numbers;
    console.info(
      `  voucher numbers: ${numbers.periods} periods, ${numbers.broken.length ? numbers.broken.join('; ') : 'each 1..N, unique and gap-free'}`,
    );
    for (const b of numbers.broken) fail(`${name}: voucher numbers not 1..N in ${b}`);
  }
  return outcome;
}

/**
 * Scenario 8: what finance takes out of the system as of the portfolio's business date: the
 * portfolio ledger's first page with the totals of every contract (the whole portfolio is scanned
 * for them), sorted by principal outstanding, the trial balance, the 五级分类 distribution today and
 * on a past month end, and the ledger export of every contract, streamed.
 */
/** The month end before the business date, for the distribution as of a past date. */
const PAST_MONTH_END = '2026-10-31';

async function reports(
  client: HttpClient,
  base: string,
  auth: Record<string, string>,
  pid: number,
): Promise<Record<string, unknown>> {
  const ledgerPage = (orderBy?: string) =>
    client.ok(`/api${LEDGER_PATHS.list}`, {
      asOf: AS_OF,
      pageNum: 1,
      pageSize: 20,
      ...(orderBy ? { orderBy, order: 'desc' } : {}),
    });
  // 试算平衡 of the business date's month: every voucher line up to its end is summed by account.
  const trial = () => client.ok(`/api${VOUCHER_PATHS.trial}`, { period: AS_OF.slice(0, 7) });
  // 五级分类 distribution: on the business date it reads the kept record; on a past date (the month
  // end before) it computes the ledger's figures of that date for every contract.
  const distribution = (asOf?: string) => client.ok(`/api${CLASS_PATHS.distribution}`, asOf ? { asOf } : {});
  await ledgerPage();
  await trial();
  await distribution(PAST_MONTH_END);
  return {
    trialBalance: await timedCalls('trial balance of the month', 5, trial),
    classDistribution: await timedCalls('class distribution today', 5, () => distribution()),
    classDistributionPast: await timedCalls(`class distribution on ${PAST_MONTH_END}`, 5, () =>
      distribution(PAST_MONTH_END),
    ),
    ledgerPage1: await timedCalls('ledger page 1 with totals', 5, () => ledgerPage()),
    ledgerByOutstanding: await timedCalls('ledger by principal outstanding', 5, () =>
      ledgerPage('principalOutstanding'),
    ),
    ledgerExport: await streamedExport(
      'ledger export',
      base,
      LEDGER_PATHS.export,
      { asOf: AS_OF },
      auth,
      pid,
    ),
  };
}

const kept = keep ? await keptDatabase(seedScale) : undefined;
const databaseUrl = kept ? kept.url : await freshDatabase(usePglite, reuse);
const seeded = kept ? kept.seeded : reuse;
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const seedStarted = performance.now();
const server = await startServer(port, databaseUrl, seedScale, !seeded);
serverPid = server.pid!;
if (kept && !seeded) await markSeeded(kept.url, seedScale);
console.info(
  `${seeded ? 'served the kept' : 'seeded the'} database in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
);
let peakRss = 0;
const backends = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
await backends?.connect();
cpuByPid = async () => {
  const pids = backends
    ? (
        await backends.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid)
    : [];
  const byPid = new Map<number, number>();
  for (const pid of [server.pid!, ...pids]) {
    const ms = procCpuMs(pid);
    if (ms !== undefined) byPid.set(pid, ms);
  }
  return byPid;
};
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid!))), 500);
try {
  const { client, auth, key } = await signedInAdmin(base);
  const reused = new NodeEnvelope(key.keyId, key.publicKey);
  const fresh = new NodeEnvelope(key.keyId, key.publicKey);
  /**
   * Sealed calls, sealed before the measured window: the load generator shares the two cores with
   * the server, so sealing in its per-request hook would charge the client's crypto to the
   * server's throughput. Enough are sealed for the fastest rate seen here; should they run out, the
   * rest are sealed on the fly (a sealed call is never sent twice: its nonce would be a replay).
   */
  const sealed = (env: NodeEnvelope, rotate: boolean) => (seconds: number) => {
    const seal = () => {
      if (rotate) env.rotate();
      return env.seal('POST', LIST_PATH, LIST_BODY);
    };
    const ready = Array.from({ length: Math.ceil(MAX_RATE * seconds) }, seal);
    let next = 0;
    return {
      method: 'POST' as const,
      path: LIST_PATH,
      setupRequest: (req: autocannon.Request) => {
        const s = ready[next++] ?? seal();
        return { ...req, headers: { ...auth, ...s.headers }, body: s.body };
      },
    };
  };

  const plain = (path: string, body: unknown) => ({
    method: 'POST' as const,
    path,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const results: Outcome[] = [];
  if (onlyWriteOffs) results.push(await writeOffContention(client, base, auth, databaseUrl));
  else if (!onlyReports) {
    await floorMatchesProduct(client, base);
    results.push(
      ...(await compareLists([
        [
          'floor: bare route, same SQL',
          () => ({ url: base, requests: [{ method: 'POST', path: FLOOR_PATH }] }),
        ],
        ['list, plaintext (envelope off)', () => ({ url: base, requests: [plain(LIST_PATH, LIST_BODY)] })],
        [
          'list, envelope, reused key',
          (seconds) => ({ url: base, requests: [sealed(reused, false)(seconds)] }),
        ],
        [
          'list, envelope, fresh key per call',
          (seconds) => ({ url: base, requests: [sealed(fresh, true)(seconds)] }),
        ],
      ])),
    );
  }
  if (!onlyReports && !onlyEnvelope && !onlyWriteOffs) {
    results.push(
      await run('contract list page 500, plaintext', {
        url: base,
        requests: [plain(LIST_PATH, LIST_BODY_PAGE_500)],
      }),
    );
    // A user paging through a deep list: each connection walks pages 481 to 520 one by one, so every
    // page after the first continues from its neighbour's boundary (KeysetPages) instead of OFFSET.
    results.push(
      await run('contract list pages 481-520, walked', {
        url: base,
        requests: [
          {
            ...plain(LIST_PATH, LIST_BODY_PAGE_500),
            setupRequest: (req, context: { pageNum?: number }) => {
              context.pageNum = context.pageNum && context.pageNum < 520 ? context.pageNum + 1 : 481;
              return { ...req, body: JSON.stringify({ ...LIST_BODY, pageNum: context.pageNum }) };
            },
          },
        ],
      }),
    );
    results.push(
      await run('contract view with 12-item plan', {
        url: base,
        requests: VIEW_PATHS.map((p) => plain(p, {})),
      }),
    );
    for (const [name, path, body] of DASHBOARD_CALLS) {
      results.push(await run(name, { url: base, connections: 8, requests: [plain(path, body)] }));
    }

    results.push(await writeOffContention(client, base, auth, databaseUrl));
    exportRun = await streamedExport(
      'customer export',
      base,
      COMPANY_PATHS.listExport,
      {},
      auth,
      server.pid!,
    );
  }
  if (!onlyWriteOffs && !onlyEnvelope) reportRun = await reports(client, base, auth, server.pid!);

  const by = (s: string) => results.find((r) => r.scenario.startsWith(s))?.rps ?? NaN;
  const cpu = (s: string) => results.find((r) => r.scenario.startsWith(s))?.cpuMsPerCall ?? NaN;
  const ratios =
    onlyReports || onlyWriteOffs
      ? {}
      : {
          productOverFloor: +(by('list, envelope, reused') / by('floor')).toFixed(2),
          reusedKeyOverPlaintext: +(by('list, envelope, reused') / by('list, plaintext')).toFixed(2),
          freshKeyOverPlaintext: +(by('list, envelope, fresh') / by('list, plaintext')).toFixed(2),
          // The same comparison by CPU per call (plaintext's / the envelope's: 1 is no extra cost).
          reusedKeyCpuRatio: +(cpu('list, plaintext') / cpu('list, envelope, reused')).toFixed(2),
          freshKeyCpuRatio: +(cpu('list, plaintext') / cpu('list, envelope, fresh')).toFixed(2),
        };
  const report = {
    date: new Date().toISOString(),
    scale,
    seedScale,
    database: databaseUrl ? 'postgresql' : 'pglite',
    connections,
    duration,
    results,
    ratios,
    writeOffs: contention,
    customerExport: exportRun,
    reports: reportRun,
    peakServerRssMb: peakRss,
    failures,
  };
  console.info(JSON.stringify(ratios), `peak server RSS ${peakRss} MB`);
  if (ratios.productOverFloor !== undefined && !(ratios.productOverFloor >= 0.9))
    console.warn(
      `product / floor ${ratios.productOverFloor} is below the target of 0.9 (not a failure: a ratio on a shared machine)`,
    );
  mkdirSync('bench/results', { recursive: true });
  const only = onlyReports ? '-reports' : onlyWriteOffs ? '-write-offs' : onlyEnvelope ? '-envelope' : '';
  const name = `load-${report.database}${only}`;
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(report, null, 2));
} catch (err) {
  // A call the runner makes itself (a login, a report) that fails fails the run too.
  fail(`the run stopped: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  clearInterval(sampler);
  server.kill('SIGTERM');
  // Left open, the backends' client kept the run from exiting after its report.
  await backends?.end().catch(() => undefined);
}
if (failures.length) {
  console.error(
    `\n${failures.length} scenario check(s) failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`,
  );
  process.exitCode = 1;
}
