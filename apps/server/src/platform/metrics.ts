import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, collectDefaultMetrics, register, type Metric } from 'prom-client';
import type { ServerStatus } from '@portal/contract/server-monitor';
import type { PoolStats } from './db/client';

/**
 * The server's figures (docs/operations.md "Monitoring"), kept in prom-client's default global
 * `register`: `/metrics` prints that register, so a metric any module adds there (the scheduler's
 * `portal_job_*`) is published with no wiring. The 服务监控 screen reads the same metrics
 * (serverStatus below), never a second measurement.
 */

/** A metric made once per process: a second portal in one process (tests) finds the first one's. */
function once<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** What one portal contributes to the gauges; a test process may hold several portals in turn. */
export interface MetricSource {
  pool(): PoolStats;
  /** Sessions in force in the database (not revoked, not expired, not idle). */
  sessionsActive(): Promise<number>;
  /** Sessions this server holds resolved in memory. */
  sessionsCached(): number;
}

const sources = new Set<MetricSource>();

/** Adds a portal's figures to the gauges until the returned function is called (its close). */
export function addMetricSource(source: MetricSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

const sum = (f: (s: MetricSource) => number) => [...sources].reduce((n, s) => n + f(s), 0);

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LONG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];

const httpRequests = once(
  'portal_http_requests_total',
  () =>
    new Counter({
      name: 'portal_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
    }),
);
const httpDuration = once(
  'portal_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time from the request to its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
    }),
);
let inFlight = 0;
once(
  'portal_http_requests_in_flight',
  () =>
    new Gauge({
      name: 'portal_http_requests_in_flight',
      help: 'HTTP requests received and not yet answered',
      collect() {
        this.set(inFlight);
      },
    }),
);

const poolGauge = (name: string, help: string, f: (p: PoolStats) => number) =>
  once(
    name,
    () =>
      new Gauge({
        name,
        help,
        collect() {
          this.set(sum((s) => f(s.pool())));
        },
      }),
  );
const poolMax = poolGauge('portal_db_pool_max', 'Database connections the pool may open', (p) => p.max);
const poolInUse = poolGauge('portal_db_pool_in_use', 'Database connections lent out now', (p) => p.inUse);
const poolIdle = poolGauge('portal_db_pool_idle', 'Database connections open and idle', (p) => p.idle);
const poolWaiting = poolGauge(
  'portal_db_pool_waiting',
  'Queries waiting for a database connection',
  (p) => p.waiting,
);

const sessionsActive = once(
  'portal_sessions_active',
  () =>
    new Gauge({
      name: 'portal_sessions_active',
      help: 'Sessions in force in the database (all servers)',
      async collect() {
        let n = 0;
        for (const s of sources) n += await s.sessionsActive();
        this.set(n);
      },
    }),
);
const sessionsCached = once(
  'portal_sessions_cached',
  () =>
    new Gauge({
      name: 'portal_sessions_cached',
      help: 'Sessions this server holds resolved in memory',
      collect() {
        this.set(sum((s) => s.sessionsCached()));
      },
    }),
);

const loginFailures = once(
  'portal_login_failures_total',
  () =>
    new Counter({
      name: 'portal_login_failures_total',
      help: 'Refused sign-ins by outcome (locked: refused because the name is locked)',
      labelNames: ['outcome'] as const,
    }),
);

const exportDuration = once(
  'portal_export_duration_seconds',
  () =>
    new Histogram({
      name: 'portal_export_duration_seconds',
      help: 'Time to stream one xlsx export, by outcome',
      labelNames: ['outcome'] as const,
      buckets: LONG_BUCKETS,
    }),
);
const pdfDuration = once(
  'portal_pdf_duration_seconds',
  () =>
    new Histogram({
      name: 'portal_pdf_duration_seconds',
      help: 'Time to render one print PDF (waiting for a render slot included), by outcome',
      labelNames: ['outcome'] as const,
      buckets: LONG_BUCKETS,
    }),
);

/** Event-loop delay over the last complete window (a figure that does not change as it is read). */
const LOOP_WINDOW_MS = 30_000;
const loopHistogram = monitorEventLoopDelay({ resolution: 10 });
loopHistogram.enable();
let loopLast: { p50: number; p99: number; max: number } | undefined;
const loopNow = () => ({
  p50: loopHistogram.percentile(50) / 1e9,
  p99: loopHistogram.percentile(99) / 1e9,
  max: loopHistogram.max / 1e9,
});
setInterval(() => {
  loopLast = loopNow();
  loopHistogram.reset();
}, LOOP_WINDOW_MS).unref();
const loopDelay = once(
  'portal_event_loop_delay_seconds',
  () =>
    new Gauge({
      name: 'portal_event_loop_delay_seconds',
      help: `Event-loop delay over the last ${LOOP_WINDOW_MS / 1000} s (the first window: since start)`,
      labelNames: ['stat'] as const,
      collect() {
        const d = loopLast ?? loopNow();
        this.set({ stat: 'p50' }, d.p50);
        this.set({ stat: 'p99' }, d.p99);
        this.set({ stat: 'max' }, d.max);
      },
    }),
);

const uptime = once(
  'portal_process_uptime_seconds',
  () =>
    new Gauge({
      name: 'portal_process_uptime_seconds',
      help: 'Seconds since this server process started',
      collect() {
        this.set(Math.round(process.uptime()));
      },
    }),
);

// Node's own figures (memory, CPU, handles, garbage collection), once per process.
if (!register.getSingleMetric('process_resident_memory_bytes')) collectDefaultMetrics({ register });

/** A duration observer: call the returned function with the outcome when the work ends. */
function timer(h: Histogram<'outcome'>): (outcome: 'ok' | 'failed') => void {
  const end = h.startTimer();
  return (outcome) => void end({ outcome });
}

export const metrics = {
  loginFailed: (outcome: string) => loginFailures.inc({ outcome }),
  exportStarted: () => timer(exportDuration),
  pdfStarted: () => timer(pdfDuration),
};

/** Counts and times every answer by its route pattern (never its raw URL: bounded label values). */
export function installHttpMetrics(app: FastifyInstance): void {
  const open = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (req) => {
    inFlight++;
    open.add(req);
  });
  const settle = (req: FastifyRequest) => {
    if (!open.delete(req)) return false;
    inFlight--;
    return true;
  };
  app.addHook('onResponse', async (req, reply) => {
    if (!settle(req)) return;
    const labels = {
      method: req.method,
      route: req.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
  app.addHook('onRequestAbort', async (req) => void settle(req));
}

/** The Prometheus text of the default register (every portal_* metric, whoever made it). */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: register.contentType, body: await register.metrics() };
}

async function value(metric: Metric, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await metric.get();
  const hit = values.find((v) =>
    Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want),
  );
  return hit?.value ?? 0;
}

async function named(name: string): Promise<number> {
  const m = register.getSingleMetric(name);
  return m ? value(m) : 0;
}

/** 服务监控: the figures /metrics publishes, read from the same metrics. */
export async function serverStatus(): Promise<ServerStatus> {
  return {
    uptimeSeconds: await value(uptime),
    memory: {
      rssBytes: await named('process_resident_memory_bytes'),
      heapUsedBytes: await named('nodejs_heap_size_used_bytes'),
      heapTotalBytes: await named('nodejs_heap_size_total_bytes'),
      externalBytes: await named('nodejs_external_memory_bytes'),
    },
    eventLoopDelayMs: {
      p50: (await value(loopDelay, { stat: 'p50' })) * 1000,
      p99: (await value(loopDelay, { stat: 'p99' })) * 1000,
      max: (await value(loopDelay, { stat: 'max' })) * 1000,
    },
    dbPool: {
      max: await value(poolMax),
      inUse: await value(poolInUse),
      idle: await value(poolIdle),
      waiting: await value(poolWaiting),
    },
    sessions: { active: await value(sessionsActive), cached: await value(sessionsCached) },
    nodeVersion: process.version,
    pid: process.pid,
  };
}
