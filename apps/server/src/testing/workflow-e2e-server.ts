/**
 * A test-only portal for the workflow browser test (apps/web/e2e/workflow.e2e.ts): the product's
 * modules plus the sample document type of testkit.ts, on an in-memory PGlite, serving the built
 * SPA. Nothing here is part of the production build (main.ts never imports it).
 *
 *   PORT=18080 WEB_DIST=apps/web/dist npx tsx apps/server/src/testing/workflow-e2e-server.ts
 *
 * Users (password = ADMIN_PASSWORD): maker 张经办 (业务经理), risk1 李风控 (风控), boss 赵总 (总经理);
 * 风控 and 总经理 also get the ft-process screen (流程监控), where the test decides.
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../platform/config';
import { openDatabase } from '../platform/db/client';
import { buildPortal } from '../server';
import { MODULES } from '../modules';
import { createUser, sampleModule } from '../modules/workflow/testkit';

async function main(): Promise<void> {
  const config = loadConfig({
    ...process.env,
    DEMO_DATA: 'off',
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'Admin@12345678',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const database = await openDatabase({});
  // Warnings only: the watchdog's slow requests and event-loop blocks reach the e2e report.
  const portal = await buildPortal({
    config,
    database,
    logger: { level: 'warn' },
    modules: [...MODULES, sampleModule],
  });
  const { db } = database;
  await createUser(db, 'maker', '张经办', ['biz-manager']);
  await createUser(db, 'risk1', '李风控', ['risk']);
  await createUser(db, 'boss', '赵总', ['gm']);
  for (const role of ['risk', 'gm']) {
    for (const code of ['ft-config', 'ft-process']) {
      await db.execute(sql`insert into role_menus (role_id, menu_code) select id, ${code} from roles where code = ${role}
        on conflict do nothing`);
    }
  }
  await portal.app.listen({ port: config.port, host: '127.0.0.1' });
  console.info('WORKFLOW_E2E_READY');
  const stop = () => {
    void portal
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
