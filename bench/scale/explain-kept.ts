/**
 * Where a kept 台账 page and a kept 五级分类 of a past date spend their time (bench/README.md "Ten
 * times the portfolio"): the two calls of bench/scale/run.ts made by the service functions
 * themselves against a kept database, every read statement first run under EXPLAIN (ANALYZE,
 * BUFFERS) and its plan printed, then run as the call runs it. Read-only: the calls are read-only
 * transactions and EXPLAIN ANALYZE of a select writes nothing.
 *
 *   npx tsx bench/scale/explain-kept.ts <database> [--user all|<userId>] [--org <orgCode>]
 *
 * `--user` picks the data scope: `all` (an administrator, the default) or a user id whose
 * organisation's subtree (本组织及下级) is read. Needs a date the day-end kept (run.ts's day-end).
 */
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/platform/db/client';
import type { ScopeUser } from '../../apps/server/src/platform/auth/data-scope';
import { ledgerPage } from '../../apps/server/src/modules/ledger/service';
import { classDistribution } from '../../apps/server/src/modules/ledger/distribution';
import { AS_OF } from '../load/scenarios';

const PAST_MONTH_END = '2026-10-31';
const database = process.argv[2];
if (!database) throw new Error('usage: explain-kept.ts <database> [--user all|<userId>] [--org <orgCode>]');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

type Query = (
  this: pg.Client,
  config: unknown,
  values?: unknown,
  callback?: unknown,
) => Promise<pg.QueryResult>;
const original = pg.Client.prototype.query as unknown as Query;
let explained = 0;
(pg.Client.prototype as unknown as { query: Query }).query = async function (
  this: pg.Client,
  config: unknown,
  values?: unknown,
  callback?: unknown,
) {
  // The pool's own calls (a callback) go through untouched.
  if (typeof values === 'function' || typeof callback === 'function')
    return original.call(this, config, values, callback);
  const text = typeof config === 'string' ? config : (config as { text?: string }).text;
  const params = ((typeof config === 'object' && config
    ? (config as { values?: unknown[] }).values
    : undefined) ?? values) as unknown[] | undefined;
  if (text && /^\s*(select|with)\b/i.test(text)) {
    const plan = await original.call(this, {
      text: `explain (analyze, buffers) ${text}`,
      values: params ?? [],
    });
    explained += 1;
    console.log(`--- statement ${explained}: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
    for (const r of plan.rows as { 'QUERY PLAN': string }[]) console.log(r['QUERY PLAN']);
  }
  return original.call(this, config, values);
};

const url = `postgres://postgres@127.0.0.1:5432/${database}`;
const database_ = await openDatabase({ databaseUrl: url, poolSize: 2 });
const db = database_.db;
const pool = new pg.Pool({ connectionString: url, max: 1 });
const who = arg('--user') ?? 'all';
let user: ScopeUser = { dataScope: 'all', deptId: null, userId: 0 };
if (who !== 'all') {
  const { rows } = await pool.query<{ dept_id: string }>('select dept_id from users where id = $1', [who]);
  user = { dataScope: 'dept', deptId: Number(rows[0]!.dept_id), userId: Number(who) };
}
const orgCode = arg('--org');
console.log(`=== 台账 page 1 with totals on ${AS_OF} (${who}${orgCode ? `, 机构 ${orgCode}` : ''})`);
let t = performance.now();
const page = await ledgerPage(
  db,
  user,
  { asOf: AS_OF, pageNum: 1, pageSize: 20, ...(orgCode ? { orgCode } : {}) },
  AS_OF,
);
console.log(
  `=== ${page.total} contracts, ${page.list.length} rows, ${(performance.now() - t).toFixed(0)} ms with the EXPLAINs`,
);
console.log(`=== 五级分类 on ${PAST_MONTH_END}`);
t = performance.now();
const dist = await classDistribution(db, user, PAST_MONTH_END, AS_OF);
console.log(
  `=== ${dist.totals.contracts} contracts, ${dist.totals.principalOutstanding}, ${(performance.now() - t).toFixed(0)} ms with the EXPLAINs`,
);
await pool.end();
await database_.close();
