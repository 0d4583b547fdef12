/**
 * The product server plus the framework/database floor of scenario 3: a bare Fastify route that
 * runs the same list SQL on the same pool with no envelope, session or validation.
 */
import { loadConfig } from '../../apps/server/src/platform/config';
import { openDatabase } from '../../apps/server/src/platform/db/client';
import type { PortalModule } from '../../apps/server/src/platform/module';
import { buildPortal } from '../../apps/server/src/server';
import { MODULES } from '../../apps/server/src/modules';
import { listRules } from '../../apps/server/src/modules/ruler/service';
import { FLOOR_PATH, LIST_BODY } from './scenarios';

const floor: PortalModule = {
  name: 'bench-floor',
  register({ app, db }) {
    app.post(FLOOR_PATH, { config: { perm: 'public' } }, async () => ({
      status: 200,
      ok: true,
      msg: '操作成功',
      data: await listRules(db, LIST_BODY),
    }));
  },
};

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { pgliteDir: `${config.dataDir}/pg`, lockDir: config.dataDir },
);
const portal = await buildPortal({ config, database, modules: [...MODULES, floor], logger: false });
const rules = Number(process.env.BENCH_RULES ?? 2000);
const calc = {
  annualRate: '0.0850',
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRate: '0',
  feeCollection: 'BACK',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 0,
  countBothEnds: false,
  allocationOrder: ['PENALTY', 'INTEREST', 'FEE', 'PRINCIPAL'],
  inAdvanceOrder: ['PRINCIPAL', 'PENALTY', 'FEE', 'INTEREST'],
};
await database.rawTransaction((conn) =>
  conn.query(
    `insert into interest_rules (biz_code, name, calc, annual_rate, method)
     select lpad(nextval('code_seq_rule')::text, 12, '0'), '基准规则' || g, $1::jsonb, 0.03 + (g % 50) / 1000.0, 'BULLET'
       from generate_series(1, $2::int) g where (select count(*) from interest_rules) < $2::int`,
    [JSON.stringify(calc), rules],
  ),
);
await portal.app.listen({ port: config.port, host: '127.0.0.1' });
console.info(`bench server listening on ${config.port}`);
process.on(
  'SIGTERM',
  () =>
    void portal
      .close()
      .then(() => database.close())
      .then(() => process.exit(0)),
);
