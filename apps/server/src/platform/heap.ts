import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past the heap that survived the last full collection
 * before it collects again, in percent, in a served process.
 *
 * V8 picks that factor from the machine's memory: with a few GB of RAM it is up to 4, so the
 * ~55 MB a served portal keeps alive may become ~220 MB of heap, mostly dead request objects
 * promoted while requests wait their turn on PGlite, before the first full collection under load
 * (bench/load on PGlite: 216 MB heap used, 422 MB RSS; PGlite's own WebAssembly memory stayed at
 * its 128 MB minimum with ~30 MB of it touched). At 30 % the heap is collected at ~1.3 times
 * what stays alive (~100 MB in that run, RSS 323 MB), a full collection every ~10 s under load
 * that costs 10–50 ms, almost all of it concurrent marking.
 *
 * The same holds with PostgreSQL: the ledger export of 100,000 contracts promotes each batch's
 * rows while the next batch is read, and with V8's default the server grew from 190 MB to 310–400
 * MB before its first full collection; at 30 % it stays within 191–213 MB from the first row to
 * the last, and the export takes 22 s instead of 34 s (bench/README.md, scenario 8).
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * The flag for this process, or undefined when its command line already chose one (an operator
 * tuning the process wins over the default).
 */
export function heapGrowingFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))
    ? undefined
    : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Applied by every served process (main.ts, the bench server) on either database; test processes
 * keep V8's defaults. Setting it in code rather than on the node command line makes it hold for
 * every way the server is started (npm start, node dist/main.js, the bench server). V8 reads this
 * flag each time it computes the next collection limit, so setting it after start-up takes effect.
 */
export function boundHeapGrowth(): void {
  const flag = heapGrowingFlag(process.execArgv);
  if (flag) setFlagsFromString(flag);
}
