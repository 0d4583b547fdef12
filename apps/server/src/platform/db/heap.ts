import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past the heap that survived the last full collection
 * before it collects again, in percent, while this process hosts the embedded database.
 *
 * V8 picks that factor from the machine's memory: with a few GB of RAM it is up to 4, so the
 * ~55 MB a served portal keeps alive may become ~220 MB of heap, mostly dead request objects
 * promoted while requests wait their turn on PGlite, before the first full collection under load
 * (bench/load on PGlite: 216 MB heap used, 422 MB RSS; PGlite's own WebAssembly memory stayed at
 * its 128 MB minimum with ~30 MB of it touched). At 30 % the heap is collected at ~1.3 times
 * what stays alive (~100 MB in that run, RSS 323 MB), a full collection every ~10 s under load
 * that costs 10–50 ms, almost all of it concurrent marking.
 */
export const PGLITE_HEAP_GROWING_PERCENT = 30;

/**
 * The flag for this process, or undefined when its command line already chose one (an operator
 * tuning the process wins over the default).
 */
export function heapGrowingFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))
    ? undefined
    : `--heap-growing-percent=${PGLITE_HEAP_GROWING_PERCENT}`;
}

/**
 * Applied when the process opens a served PGlite (the one-process laptop/office setting, where
 * its memory is the whole footprint), not on PostgreSQL: there the process holds no database and
 * keeps V8's defaults. Setting it in code rather than on the node command line makes it hold for
 * every way the server is started (npm start, node dist/main.js, the bench server). V8 reads this
 * flag each time it computes the next collection limit, so setting it after start-up takes effect.
 */
export function boundHeapGrowth(): void {
  const flag = heapGrowingFlag(process.execArgv);
  if (flag) setFlagsFromString(flag);
}
