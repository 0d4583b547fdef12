import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from './testing/harness';
import { freePort, serverEnv, spawnServer } from './testing/process';
import { HttpClient } from './testing/http-client';
import { PRINT_PATHS } from '@portal/contract/print';
import { PGLITE_PG_MAJOR } from './platform/startup';

/**
 * Start-up errors (docs/operations.md "When the server does not start"): the real
 * process refuses with exit code 1 and one line that names the setting and the fix, no stack.
 */
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'portal-startup-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function refused(extra: Record<string, string>, dataDir?: string): Promise<string> {
  const dir = dataDir ?? mkdtempSync(join(scratch, 'data-'));
  const sp = spawnServer(
    serverEnv(dir, { DEMO_DATA: 'off', ...extra }),
    Number(extra.PORT ?? (await freePort())),
  );
  const code = await sp.exited();
  const out = sp.output().trim();
  expect(code, out).toBe(1);
  expect(out.split('\n'), out).toHaveLength(1);
  expect(out).not.toMatch(/^\s+at /m);
  return out;
}

// docs/operations.md "Print PDFs and Chromium": a missing Chromium no longer refuses the start (the
// HTML preview beside it: print.chromium.test.ts).
describe('CHROMIUM_PATH pointing to nothing', { timeout: 240_000, concurrent: true }, () => {
  it('starts, warns once, and the print call answers why PDFs are unavailable', async () => {
    const sp = spawnServer(
      serverEnv(mkdtempSync(join(scratch, 'data-')), {
        CHROMIUM_PATH: join(scratch, 'no-chromium'),
        ADMIN_PASSWORD: 'Admin@12345678',
        DEMO_DATA: 'off',
      }),
      await freePort(),
    );
    try {
      await sp.waitFor('Portal listening', 200_000);
      const admin = new HttpClient(sp.url);
      await admin.login('admin', 'Admin@12345678');
      const pdf = await admin.call(`/api${PRINT_PATHS.perViewPdf}`, {
        bizType: 'contract',
        docCode: '000000000001',
      });
      expect(pdf.status).toBe(400);
      expect(pdf.msg).toBe(
        'PDF打印不可用：服务器上CHROMIUM_PATH所指的Chromium不存在或不可执行，请联系管理员；请用“预览”在浏览器中打印',
      );
      expect(sp.output().match(/no executable Chromium at \S*no-chromium/g), sp.output()).toHaveLength(1);
    } finally {
      await sp.stop();
    }
  });
});

// Each case is a node process loading the whole bundle: generous time on a busy machine. The
// cases, and the start above (a whole first start, the file's longest), run side by side: each
// waits on its own process (bench/README.md "Thirteenth pass").
describe('start-up errors', { timeout: 120_000, concurrent: true }, () => {
  it.concurrent('DATABASE_URL that is not a URL', async () => {
    expect(await refused({ DATABASE_URL: 'localhost:5432/portal' })).toMatch(
      /^Cannot start: DATABASE_URL .*postgres:\/\//,
    );
  });
  it.concurrent('DATABASE_URL refused', async () => {
    const port = await freePort();
    expect(await refused({ DATABASE_URL: `postgres://u:secret@127.0.0.1:${port}/portal` })).toMatch(
      new RegExp(`^Cannot start: DATABASE_URL: nothing answers at 127.0.0.1:${port} .*start PostgreSQL`),
    );
  });
  it.concurrent('DATABASE_URL with an unknown host', async () => {
    const line = await refused({ DATABASE_URL: 'postgres://u:secret@no-such-host.invalid:5432/portal' });
    expect(line).toMatch(/^Cannot start: DATABASE_URL: unknown host no-such-host\.invalid/);
    expect(line).not.toContain('secret');
  });
  (onPostgres ? it.concurrent : it.skip)('DATABASE_URL naming a missing database', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/no_such_database_23';
    expect(await refused({ DATABASE_URL: url.toString() })).toMatch(
      /^Cannot start: DATABASE_URL: database "no_such_database_23" does not exist.*createdb no_such_database_23/,
    );
  });
  it.concurrent('DATA_DIR that cannot be written', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    expect(await refused({}, join(file, 'data'))).toMatch(/^Cannot start: DATA_DIR: .* is not writable/);
  });
  it.concurrent('PORT in use', async () => {
    const port = await freePort();
    const busy: Server = await new Promise((r) => {
      const s = createServer().listen(port, '127.0.0.1', () => r(s));
    });
    try {
      expect(await refused({ PORT: String(port) })).toMatch(
        new RegExp(`^Cannot start: PORT: ${port} is already in use`),
      );
    } finally {
      busy.close();
    }
  });
  it.concurrent('a bad setting', async () => {
    expect(await refused({ PORT: 'eighty' })).toMatch(/^Cannot start: PORT must be a non-negative integer/);
  });
  it.concurrent('LOG_LEVEL=debug adds the stack', async () => {
    const sp = spawnServer(
      serverEnv(mkdtempSync(join(scratch, 'data-')), {
        DATABASE_URL: 'postgres://127.0.0.1:1/x',
        LOG_LEVEL: 'debug',
      }),
      await freePort(),
    );
    expect(await sp.exited()).toBe(1);
    expect(sp.output()).toMatch(/^Cannot start: DATABASE_URL/m);
    expect(sp.output()).toMatch(/^\s+at /m);
  });
});

describe('a data directory that is not ours', { timeout: 120_000 }, () => {
  it.concurrent('a foreign directory is refused and left untouched', async () => {
    const dir = mkdtempSync(join(scratch, 'data-'));
    mkdirSync(join(dir, 'pg'));
    writeFileSync(join(dir, 'pg', 'notes.txt'), 'somebody else’s files');
    expect(await refused({}, dir)).toMatch(
      /^Cannot start: DATA_DIR: .*pg is not an embedded database .*left untouched/,
    );
    expect(readdirSync(join(dir, 'pg'))).toEqual(['notes.txt']);
    expect(readFileSync(join(dir, 'pg', 'notes.txt'), 'utf8')).toBe('somebody else’s files');
  });
  it.concurrent('a database of another PostgreSQL major version is refused and left untouched', async () => {
    const dir = mkdtempSync(join(scratch, 'data-'));
    mkdirSync(join(dir, 'pg', 'base'), { recursive: true });
    writeFileSync(join(dir, 'pg', 'PG_VERSION'), '99\n');
    expect(await refused({}, dir)).toMatch(/^Cannot start: DATA_DIR: .* holds a PostgreSQL 99 database/);
    expect(readdirSync(join(dir, 'pg')).sort()).toEqual(['PG_VERSION', 'base']);
    expect(existsSync(join(dir, 'portal.lock'))).toBe(false);
  });
  it.concurrent('a damaged embedded database is refused with what to do, and left untouched', async () => {
    const dir = mkdtempSync(join(scratch, 'data-'));
    const db = await PGlite.create(join(dir, 'pg'));
    await db.query('create table kept (x int)');
    await db.close();
    // A control file cut short, as a full disk or a copy stopped half-way leaves it.
    const control = join(dir, 'pg', 'global', 'pg_control');
    truncateSync(control, 100);
    const line = await refused({}, dir);
    expect(line).toMatch(/^Cannot start: DATA_DIR: the embedded database in .* cannot be opened/);
    expect(line).toContain('npm run restore');
    expect(readFileSync(control).length).toBe(100);
    expect(existsSync(join(dir, 'portal.lock'))).toBe(false);
  });
  it('PGLITE_PG_MAJOR is the major version the bundled PGlite writes', async () => {
    const dir = mkdtempSync(join(scratch, 'pglite-'));
    const db = await PGlite.create(dir);
    await db.close();
    expect(readFileSync(join(dir, 'PG_VERSION'), 'utf8').trim()).toBe(PGLITE_PG_MAJOR);
  });
});
