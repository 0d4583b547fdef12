import Decimal from 'decimal.js';
/**
 * Load scenarios against a real server on loopback. Usage: tsx bench/load/run.ts
 * [--scale small|1] [--only reports]. PostgreSQL at BENCH_DATABASE_URL (default the machine's, a
 * fresh database portal_bench), or PGlite with --pglite. `--only reports` runs only scenario 8
 * (the finance outputs). `--reuse` serves the PostgreSQL database portal_bench a previous run seeded at
 * the same scale, without dropping or seeding it (for measuring one change after another).
 * `--keep` uses a database kept between runs (bench_scale1 at scale 1, bench_small otherwise): seeded
 * on the first run, served as it is by every later run with the same seed (bench/README.md).
 * Writes bench/results/load-<database>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { HttpClient } from '../../apps/server/src/testing/http-client';
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
  VIEW_PATHS,
} from './scenarios';
import { freePort, freshDatabase, keptDatabase, markSeeded, PASSWORD, rssMb, startServer } from './server';

const scale = process.argv.includes('1') ? 'full' : 'small';
/** The seeded portfolio's scale: 1 is 100,000 contracts and 1,200,000 plan items. */
const seedScale = scale === 'full' ? '1' : '0.05';
const usePglite = process.argv.includes('--pglite');
const duration = scale === 'full' ? 20 : 6;
/** Unmeasured seconds per compared scenario, and the interleaved rounds that share `duration`. */
const warmup = scale === 'full' ? 4 : 2;
const ROUNDS = scale === 'full' ? 4 : 2;
/** Calls per second no scenario here reaches on this machine (sealed calls are made ahead for it). */
const MAX_RATE = 4000;
const connections = 32;
const onlyReports = process.argv.includes('reports');
const reuse = process.argv.includes('--reuse');
const keep = process.argv.includes('--keep') && !usePglite;

interface Outcome {
  scenario: string;
  rps: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function run(name: string, opts: autocannon.Options): Promise<Outcome> {
  const r = await autocannon({ connections, duration, ...opts });
  const o = {
    scenario: name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
  console.info(
    `${name.padEnd(34)} ${String(o.rps).padStart(7)} req/s  p50 ${o.p50} ms  p97.5 ${o.p97_5} ms  p99 ${o.p99} ms  non2xx ${o.non2xx}  errors ${o.errors}`,
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
  for (const [, options] of scenarios)
    await autocannon({ connections, duration: warmup, ...options(warmup) });
  const rounds: Outcome[][] = scenarios.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = scenarios.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const [name, options] = scenarios[i]!;
      const seconds = duration / ROUNDS;
      rounds[i]!.push(await run(`${name} (round ${round + 1})`, { ...options(seconds), duration: seconds }));
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
      p50: median((r) => r.p50),
      p90: median((r) => r.p90),
      p97_5: median((r) => r.p97_5),
      p99: median((r) => r.p99),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
    };
    console.info(
      `${name.padEnd(34)} ${String(o.rps).padStart(7)} req/s  p50 ${o.p50} ms  p99 ${o.p99} ms (over ${ROUNDS} rounds)`,
    );
    return o;
  });
}

/** Scenario 5's own figures (beyond autocannon's), filled by writeOffContention. */
let contention: Record<string, unknown> = {};
let exportRun: Record<string, unknown> = {};
let reportRun: Record<string, unknown> = {};

/**
 * Scenario 5: 32 connections each saving a write-off of 1.00 against one of 100 incomings of
 * 50.00 (so they run dry mid-run) and approving it at once; afterwards no incoming may hold more
 * allocated than it received, and the reconciliation must balance.
 */
async function writeOffContention(
  client: HttpClient,
  base: string,
  auth: Record<string, string>,
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
  const outcome = await run('write-off save + approve, 100 incomings', {
    url: base,
    requests: [
      {
        method: 'POST',
        path: `/api${PAID_PATHS.savePlanPaidInfo}`,
        setupRequest: (req) => {
          n++;
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
          const r = JSON.parse(body) as { status: number; data?: { paidBizCode: string } };
          context.code = r.status === 200 ? r.data!.paidBizCode : '';
        },
      },
      {
        method: 'POST',
        setupRequest: (req, context) => ({
          ...req,
          path: `/api${PAID_PATHS.audit}?paidBizCode=${(context.code as string) || '000000000000'}`,
          headers: json,
          body: '{}',
        }),
      },
    ],
  });
  let overAllocated = 0;
  let allocated = new Decimal(0);
  for (const code of incomes) {
    const v = await client.ok<{ amount: string; allocated: string }>(
      `/api${INCOME_PATHS.viewBaseInfo}`,
      undefined,
      {
        fiidBizCode: code,
      },
    );
    if (new Decimal(v.allocated).gt(v.amount)) overAllocated++;
    allocated = allocated.plus(v.allocated);
  }
  // Counted by the server: requests still in flight when the run stops complete after it.
  const approved = (
    await client.ok<{ total: number }>(`/api${PAID_PATHS.list}`, {
      state: 'approved',
      paidDateFrom: AS_OF,
      paidDateTo: AS_OF,
      pageSize: 1,
    })
  ).total;
  const rec = await client.ok<{ balanced: boolean }>(`/api${RECONCILE_PATHS.reconcile}`, {
    dateFrom: AS_OF,
    dateTo: AS_OF,
  });
  contention = {
    approved,
    allocated: allocated.toFixed(2),
    // Each approved write-off allocates exactly 1.00.
    expectedAllocated: new Decimal(approved).toFixed(2),
    overAllocatedIncomings: overAllocated,
    reconciliationBalanced: rec.balanced,
  };
  console.info(
    `  approved ${approved} write-offs; allocated ${allocated.toFixed(2)} of 5000.00; over-allocated incomings: ${overAllocated}; reconciliation balanced: ${rec.balanced}`,
  );
  return outcome;
}

/**
 * Scenario 6 (and 8's ledger export): an export, streamed; its time and the server's peak RSS
 * while it runs.
 */
async function streamedExport(
  name: string,
  base: string,
  path: string,
  body: unknown,
  auth: Record<string, string>,
  pid: number,
) {
  let peak = rssMb(pid);
  const before = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  // The server's RSS once a second while the file streams: flat, or growing with the rows.
  const timeline: number[] = [];
  const everySecond = setInterval(() => timeline.push(rssMb(pid)), 1000);
  const t = performance.now();
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const firstByte = (performance.now() - t) / 1000;
  const bytes = (await res.arrayBuffer()).byteLength;
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  clearInterval(everySecond);
  const out = {
    status: res.status,
    bytes,
    seconds: +seconds.toFixed(2),
    firstByteSeconds: +firstByte.toFixed(2),
    rssBeforeMb: before,
    peakRssMb: peak,
    rssEverySecondMb: timeline,
    loadAverage: load(),
  };
  console.info(`${name}: ${JSON.stringify(out)}`);
  return out;
}

/** The machine's 1-minute load average when a number was taken: the cores are shared (bench/README.md). */
const load = () => +loadavg()[0]!.toFixed(1);

/** One call timed `times` times in a row (a report is asked for once, not at 32 connections). */
async function timedCalls(name: string, times: number, call: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await call();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const out = {
    calls: times,
    medianMs: Math.round(ms[Math.floor(times / 2)]!),
    maxMs: Math.round(ms[times - 1]!),
    loadAverage: load(),
  };
  console.info(
    `${name.padEnd(34)} median ${out.medianMs} ms  max ${out.maxMs} ms (${times} calls, load average ${out.loadAverage})`,
  );
  return out;
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
if (kept && !seeded) await markSeeded(kept.url, seedScale);
console.info(
  `${seeded ? 'served the kept' : 'seeded the'} database in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid!))), 500);
try {
  const client = new HttpClient(base);
  await client.login('admin', PASSWORD);
  const keyRes = await fetch(`${base}/api/admin/portal/login/user/rsa/secretKey`, { method: 'POST' });
  const { data: key } = (await keyRes.json()) as { data: { keyId: string; publicKey: string } };
  const auth = { authorization: `Bearer ${client.token}` };
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
  if (!onlyReports) {
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

    results.push(await writeOffContention(client, base, auth));
    exportRun = await streamedExport(
      'customer export',
      base,
      COMPANY_PATHS.listExport,
      {},
      auth,
      server.pid!,
    );
  }
  reportRun = await reports(client, base, auth, server.pid!);

  const by = (s: string) => results.find((r) => r.scenario.startsWith(s))?.rps ?? NaN;
  const ratios = onlyReports
    ? {}
    : {
        productOverFloor: +(by('list, envelope, reused') / by('floor')).toFixed(2),
        reusedKeyOverPlaintext: +(by('list, envelope, reused') / by('list, plaintext')).toFixed(2),
        freshKeyOverPlaintext: +(by('list, envelope, fresh') / by('list, plaintext')).toFixed(2),
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
  };
  console.info(JSON.stringify(ratios), `peak server RSS ${peakRss} MB`);
  mkdirSync('bench/results', { recursive: true });
  const name = `load-${report.database}${onlyReports ? '-reports' : ''}`;
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(report, null, 2));
} finally {
  clearInterval(sampler);
  server.kill('SIGTERM');
}
