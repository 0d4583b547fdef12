import { join } from 'node:path';
import { loadConfig, type Config } from './platform/config';
import { checkDatabaseUrl, checkPgliteDir, checkPortFree, explainStartupError } from './platform/startup';
import { openDatabase } from './platform/db/client';
import { boundHeapGrowth } from './platform/heap';
import { firstStartBanner, PASSWORD_FILE, writePasswordFile } from './platform/initial-passwords';
import { buildPortal } from './server';

async function main(config: Config) {
  boundHeapGrowth();
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

  // docs/operations.md "Stopping a server": not ready first (/readyz 503, new calls 503 so the
  // proxy passes them on), then stop listening and finish the calls in flight, then exit.
  // A second signal during the grace ends it at once (Ctrl-C twice).
  let stopping = false;
  let endGrace = () => {};
  const stop = async (signal: string) => {
    if (stopping) return endGrace();
    stopping = true;
    portal.readiness.drain();
    console.info(
      `${signal}: not ready; new calls answer 503 for ${config.drainGraceMs / 1000} s, then the calls in flight finish and the server exits`,
    );
    const force = setTimeout(() => process.exit(1), config.drainGraceMs + 60_000);
    force.unref();
    try {
      await new Promise<void>((r) => {
        const grace = setTimeout(r, config.drainGraceMs);
        endGrace = () => {
          clearTimeout(grace);
          r();
        };
      });
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
