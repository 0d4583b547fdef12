/**
 * Where the ledger export's time goes, on a seeded database (bench/README.md "Finance outputs"):
 * the product's ledgerBatches and streamSheet run in this process against the database, each SQL
 * statement timed and the xlsx writing timed apart.
 * Usage: npx tsx bench/load/ledger-export-profile.ts [--batch 1000] [--batches 10]
 * Database: BENCH_DATABASE_URL's server, database bench_scale1 (`run.ts --scale 1 --keep` seeds it).
 */
import { loadavg } from 'node:os';
import { Writable } from 'node:stream';
import { openDatabase, type Db } from '../../apps/server/src/platform/db/client';
import { streamLedger } from '../../apps/server/src/modules/ledger/export';
import { ledgerBatches } from '../../apps/server/src/modules/ledger/service';
import { AS_OF } from './scenarios';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const batchSize = Number(arg('--batch') ?? '1000');
/** Batches to run (0: the whole export). */
const batches = Number(arg('--batches') ?? '0');
const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
base.pathname = '/bench_scale1';
const database = await openDatabase({ databaseUrl: base.toString() });

/** Every statement's time, by the order it ran in. */
const statements: { ms: number }[] = [];
// The product's code runs on this executor: the pool's, with each statement timed.
const timed = new Proxy(database.db, {
  get(target, key, receiver) {
    if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
    return async (query: Parameters<Db['execute']>[0]) => {
      const t = performance.now();
      const r = await target.execute(query);
      statements.push({ ms: performance.now() - t });
      return r;
    };
  },
}) as Db;

const admin = { dataScope: 'all' as const, deptId: null, userId: 1 };
const t0 = performance.now();
const ledger = await ledgerBatches(timed, admin, { asOf: AS_OF }, AS_OF, batchSize);
const prepMs = performance.now() - t0;
const prepStatements = statements.length;

let sqlMs = 0;
let batchCount = 0;
let rowCount = 0;
let bytes = 0;
// The reply is a counting sink: what streamSheet writes is the real xlsx, only nobody downloads it.
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    bytes += chunk.length;
    done();
  },
});
const done = new Promise<void>((resolve, reject) => sink.on('finish', resolve).on('error', reject));
const reply = {
  code: () => reply,
  header: () => reply,
  send: (out: NodeJS.ReadableStream) => out.pipe(sink),
  log: { error: (e: unknown) => console.error(e) },
};
const started = performance.now();
await streamLedger(
  reply as unknown as Parameters<typeof streamLedger>[0] /* the sink stands in for the HTTP reply */,
  {
    ...ledger,
    next: async (afterId) => {
      if (batches > 0 && batchCount >= batches) return { rows: [], lastId: null };
      const t = performance.now();
      const b = await ledger.next(afterId);
      sqlMs += performance.now() - t;
      batchCount++;
      rowCount += b.rows.length;
      return b;
    },
  },
);
await done;
const totalMs = performance.now() - started;
const batchStatements = statements.slice(prepStatements);
const perBatch = batchStatements.map((s) => s.ms).sort((a, b) => a - b);
console.info(
  JSON.stringify(
    {
      batchSize,
      batches: batchCount,
      rows: rowCount,
      bytes,
      prepareMs: Math.round(prepMs),
      exportMs: Math.round(totalMs),
      batchSqlMs: Math.round(sqlMs),
      xlsxAndWaitsMs: Math.round(totalMs - sqlMs),
      batchStatementMs: {
        median: Math.round(perBatch[Math.floor(perBatch.length / 2)] ?? 0),
        max: Math.round(perBatch.at(-1) ?? 0),
      },
      loadAverage: +loadavg()[0]!.toFixed(1),
    },
    null,
    2,
  ),
);
await database.close();
