import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Config } from './config';
import { DamagedDatabaseError } from './db/client';

/**
 * Start-up checks and the one line an operator reads when the server cannot start
 * (docs/operations.md "When the server does not start"): the setting at fault and what to do.
 */
export class StartupError extends Error {}

/** The PostgreSQL major version of the bundled PGlite; a data directory of another is refused. */
export const PGLITE_PG_MAJOR = '18';

/**
 * DATA_DIR/pg must be empty (a new database) or a PGlite data directory of our major version.
 * Anything else is refused before PGlite touches it: PGlite would initialise over a foreign
 * directory or fail half-way in one of another version, and nothing is to be "repaired" by deleting.
 */
export function checkPgliteDir(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length === 0) return;
  const versionFile = join(dir, 'PG_VERSION');
  if (!existsSync(versionFile)) {
    throw new StartupError(
      `DATA_DIR: ${dir} is not an embedded database (no PG_VERSION) and was left untouched; ` +
        'set DATA_DIR to the directory the server made, or to a new empty one.',
    );
  }
  const major = readFileSync(versionFile, 'utf8').trim();
  if (major !== PGLITE_PG_MAJOR) {
    throw new StartupError(
      `DATA_DIR: ${dir} holds a PostgreSQL ${major} database; this release embeds PostgreSQL ${PGLITE_PG_MAJOR}. ` +
        'It was left untouched: start the release that made it, back it up with `npm run backup` there and restore it here.',
    );
  }
}

/** Refuses a port in use before minutes of migrations, not after. */
export function checkPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (err: NodeJS.ErrnoException) => reject(explainListen(err, port, host)));
    s.listen(port, host, () => s.close(() => resolve()));
  });
}

function explainListen(err: NodeJS.ErrnoException, port: number, host: string): Error {
  if (err.code === 'EADDRINUSE')
    return new StartupError(
      `PORT: ${port} is already in use on ${host}; stop the program using it or set PORT to a free port.`,
    );
  if (err.code === 'EACCES')
    return new StartupError(`PORT: ${port} needs privileges this process lacks; set PORT to 1024 or above.`);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return new StartupError(
      `HOST: ${host} is not an address of this machine; set HOST (0.0.0.0 listens on all).`,
    );
  return err;
}

function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unreadable)';
  }
}

/** DATABASE_URL must be a postgres:// URL (checked before connecting: pg reports garbage confusingly). */
export function checkDatabaseUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StartupError(
      'DATABASE_URL is not a URL; write it as postgres://user:password@host:5432/database (or unset it for the embedded database).',
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new StartupError(
      `DATABASE_URL must start with postgres:// (got ${u.protocol}//); write it as postgres://user:password@host:5432/database.`,
    );
  }
}

/** The operator's line for an error thrown while starting; undefined: not one we can explain. */
export function explainStartupError(err: unknown, config: Config): string | undefined {
  if (err instanceof StartupError) return err.message;
  if (err instanceof DamagedDatabaseError)
    return (
      `DATA_DIR: ${err.message}; its files are damaged. It was left untouched: ` +
      'restore the last backup into a new DATA_DIR (npm run restore) and start on that.'
    );
  if (!(err instanceof Error)) return undefined;
  const e = err as NodeJS.ErrnoException & { hostname?: string; address?: string; port?: number };
  const url = config.databaseUrl;
  if (url) {
    const where = redacted(url);
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.slice(1)) || u.username || 'postgres';
    if (e.code === 'ECONNREFUSED')
      return `DATABASE_URL: nothing answers at ${u.hostname}:${u.port || 5432} (${where}); start PostgreSQL there or correct host and port.`;
    if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
      return `DATABASE_URL: unknown host ${u.hostname} (${where}); correct the host name.`;
    if (e.code === 'ETIMEDOUT')
      return `DATABASE_URL: ${u.hostname} does not answer (${where}); check the host, port and firewall.`;
    if (e.code === '3D000')
      return `DATABASE_URL: database "${database}" does not exist on ${u.hostname}; create it (createdb ${database}) or correct the URL.`;
    if (e.code === '28P01' || e.code === '28000')
      return `DATABASE_URL: PostgreSQL refused user "${decodeURIComponent(u.username)}" (${e.message}); correct the user or password.`;
  }
  if (e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'ENOTDIR' || e.code === 'EPERM') {
    if (e.path?.startsWith(config.dataDir) || config.dataDir.startsWith(e.path ?? '\0'))
      return `DATA_DIR: ${config.dataDir} is not writable (${e.code} on ${e.path}); set DATA_DIR to a directory this user can write, or fix its permissions.`;
  }
  if (e.code === 'EADDRINUSE') return explainListen(e, config.port, config.host).message;
  if (err.message.includes('is in use by another process')) return `DATA_DIR: ${err.message}`;
  return undefined;
}
