/**
 * What the load and scale benches measure with (bench/load/run.ts, bench/scale/run.ts): checked
 * autocannon windows, calls timed one after another, a streamed export with the server's RSS, and
 * the run's failures.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { rssMb } from './server';

/**
 * Why the run fails (bench/README.md "A run fails"): a scenario with a non-2xx answer it does not
 * expect, an `ok: false` body, a connection error or timeout, or figures that do not reconcile.
 * Measuring goes on; the run exits 1 at the end, naming each.
 */
export const failures: string[] = [];
export function fail(what: string): void {
  failures.push(what);
  console.error(`FAILED: ${what}`);
}

/** A top-level `"ok":false` in a JSON answer (before any nested object). */
export const NOT_OK = /^\{[^{]*"ok":false/;

/** The machine's 1-minute load average when a number was taken: the cores are shared (bench/README.md). */
export const load = () => +loadavg()[0]!.toFixed(1);

/**
 * Counts, per request of a scenario, the bodies saying `ok: false` (a request's own onResponse
 * still runs) and the refusals it declares expected.
 */
function watched(
  opts: autocannon.Options,
  expect?: (status: number, body: string) => boolean,
): { opts: autocannon.Options; notOk: () => number; expected: () => number } {
  let notOk = 0;
  let expected = 0;
  const requests = (opts.requests ?? [{}]).map((req) => ({
    ...req,
    onResponse: (status: number, body: string, context: object, headers?: IncomingHttpHeaders) => {
      if (expect?.(status, body)) expected++;
      else if (status >= 200 && status < 300 && NOT_OK.test(body)) notOk++;
      // A string names a worker module's handler (autocannon's worker mode, unused here).
      if (typeof req.onResponse === 'function') req.onResponse(status, body, context, headers);
    },
  }));
  return { opts: { ...opts, requests }, notOk: () => notOk, expected: () => expected };
}

/** One autocannon run whose answers are checked; a bad answer fails the run (`fail`). */
export async function checked(
  name: string,
  opts: autocannon.Options,
  expect?: (status: number, body: string) => boolean,
): Promise<{ result: autocannon.Result; notOk: number; expected: number }> {
  const w = watched(opts, expect);
  const result = await autocannon(w.opts);
  const notOk = w.notOk();
  const expected = w.expected();
  const bad = [
    result.non2xx > expected ? `${result.non2xx - expected} non-2xx answers` : '',
    notOk ? `${notOk} answers with ok: false` : '',
    result.errors ? `${result.errors} connection errors` : '',
    result.timeouts ? `${result.timeouts} timeouts` : '',
    result.requests.total === 0 ? 'no answer at all' : '',
  ].filter(Boolean);
  if (bad.length) fail(`${name}: ${bad.join(', ')} (of ${result.requests.total} calls)`);
  return { result, notOk, expected };
}

/** A streamed export's figures (streamedExport). */
export interface ExportFigures {
  status: number;
  bytes: number;
  seconds: number;
  firstByteSeconds: number;
  rssBeforeMb: number;
  peakRssMb: number;
  rssEverySecondMb: number[];
  loadAverage: number;
}

/**
 * An export, streamed; its time, its first byte and the server's peak RSS while it runs (once a
 * second as well: flat, or growing with the rows).
 */
export async function streamedExport(
  name: string,
  base: string,
  path: string,
  body: unknown,
  auth: Record<string, string>,
  pid: number,
): Promise<ExportFigures> {
  let peak = rssMb(pid);
  const before = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const timeline: number[] = [];
  const everySecond = setInterval(() => timeline.push(rssMb(pid)), 1000);
  const t = performance.now();
  let status = 0;
  let bytes = 0;
  let firstByte = NaN;
  try {
    const res = await fetch(`${base}/api${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    status = res.status;
    // The first byte of the file, not the headers (sent before the first row is read).
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (bytes === 0) firstByte = (performance.now() - t) / 1000;
      bytes += r.value.byteLength;
    }
  } finally {
    clearInterval(sampler);
    clearInterval(everySecond);
  }
  const seconds = (performance.now() - t) / 1000;
  if (status !== 200 || bytes === 0) fail(`${name}: answered ${status} with ${bytes} bytes`);
  const out = {
    status,
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

/** Calls timed one after another: the median and the slowest. */
export interface Timed {
  calls: number;
  medianMs: number;
  maxMs: number;
  loadAverage: number;
}

/** One call timed `times` times in a row (a report is asked for once, not at 32 connections). */
export async function timedCalls(name: string, times: number, call: () => Promise<unknown>): Promise<Timed> {
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
