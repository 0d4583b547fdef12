import { join } from 'node:path';
import { loadConfig, type Config } from './platform/config';
import {
  checkChromium,
  checkDatabaseUrl,
  checkPgliteDir,
  checkPortFree,
  explainStartupError,
} from './platform/startup';
import { openDatabase } from './platform/db/client';
import { boundHeapGrowth } from './platform/heap';
import { firstStartBanner, PASSWORD_FILE, writePasswordFile } from './platform/initial-passwords';
import { buildPortal } from './server';

async function main(config: Config) {
  boundHeapGrowth();
  checkChromium(config);
  await checkPortFree(config.port, config.host);
  if (config.databaseUrl) checkDatabaseUrl(config.databaseUrl);
  else checkPgliteDir(join(config.dataDir, 'pg'));
  const database = await openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { pgliteDir: join(config.dataDir, 'pg'), lockDir: config.dataDir },
  );
  const passwordFile = join(config.dataDir, PASSWORD_FILE);
  const portal = await buildPortal({
    config,
    database,
    onFirstStart: (first) => writePasswordFile(passwordFile, first.logins),
  });
  if (portal.firstStart.created) console.info(firstStartBanner(portal.firstStart.logins, passwordFile));

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

/**
 * One line naming the setting and the fix, exit code 1; the stack only with LOG_LEVEL=debug
 * (docs/operations.md "When the server does not start").
 */
function fail(err: unknown, config: Config | undefined): never {
  const line =
    (config && explainStartupError(err, config)) ?? (err instanceof Error ? err.message : String(err));
  console.error(`Cannot start: ${line}`);
  if (process.env.LOG_LEVEL === 'debug' && err instanceof Error) console.error(err.stack);
  process.exit(1);
}

let config: Config | undefined;
try {
  config = loadConfig();
} catch (err) {
  fail(err, undefined);
}
main(config).catch((err: unknown) => fail(err, config));
