import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './platform/config';
import { openDatabase } from './platform/db/client';
import { buildPortal } from './server';

async function main() {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { pgliteDir: join(config.dataDir, 'pg'), lockDir: config.dataDir },
  );
  const portal = await buildPortal({ config, database });

  if (portal.admin.created) {
    const file = join(config.dataDir, 'initial-admin-password.txt');
    if (portal.admin.generated) {
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(file, `${portal.admin.password}\n`, { mode: 0o600 });
      console.info(
        `\n  First start: user "admin", password ${portal.admin.password}\n  (also written to ${file})\n`,
      );
    } else {
      console.info('\n  First start: user "admin" with the password from ADMIN_PASSWORD\n');
    }
  }

  await portal.app.listen({ port: config.port, host: config.host });
  const where = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  console.info(
    `Portal listening on ${where} (${database.kind === 'pglite' ? `embedded PGlite in ${join(config.dataDir, 'pg')}` : 'PostgreSQL'})`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.info(`${signal}: finishing in-flight requests and closing the database`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await portal.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      console.error(err);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
