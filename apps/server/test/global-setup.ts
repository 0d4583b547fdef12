import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from '../src/platform/db/client';
import { migrate } from '../src/platform/db/migrate';

/**
 * Tests that start the real server process (crash, restart, several servers) run the built
 * `dist/start.cjs` and the `dist/main.js` it loads, as `npm start` does. They are built here once,
 * before any test file runs, when missing or older than a source of the server or the contract
 * package: files building them in parallel would write them over each other.
 *
 * Every test database starts as a copy of one migrated template made here (README "Tests"): an
 * empty PGlite costs seconds of initdb and the migrations seconds more, in each of ~100 databases.
 * A portal that asks for the demo starts from a copy of a second template, made here as well: its
 * first start is seconds of CPU, several times that on CI's niced lane, and made by the first file
 * to need it, it counted against that file's hook limit (print.chromium.test.ts's beforeAll at 60 s).
 * A portal with the test settings alone starts from a third, first-started once here, so that it
 * does not repeat that first start (bench/README.md "Twelfth pass: a test portal's start").
 */
const root = resolve(import.meta.dirname, '..');
const main = join(root, 'dist/main.js');
const migrations = join(root, 'migrations');

function newerThanMain(dir: string): boolean {
  const r = spawnSync(
    'find',
    [dir, '-newer', main, '(', '-name', '*.ts', '-o', '-name', '*.sql', ')', '-print', '-quit'],
    {
      encoding: 'utf8',
    },
  );
  return r.stdout.trim() !== '';
}

function buildServer(): void {
  if (
    existsSync(main) &&
    existsSync(join(root, 'dist/start.cjs')) &&
    existsSync(join(root, 'dist/backup-cli.js')) &&
    statSync(main).size > 0 &&
    !newerThanMain(join(root, 'src')) &&
    !newerThanMain(resolve(root, '../../packages/contract/src'))
  ) {
    return;
  }
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building apps/server/dist failed: ${r.stderr}`);
}

/** How the templates are dumped (`dumpPglite`): a new way makes a new cached template. */
const DUMP = 'checkpointed, one WAL segment';

/**
 * A PGlite data directory as a tarball, checkpointed first: each database loaded from it then starts
 * without replaying the WAL written since the last checkpoint (the migrations' ≈ 6 MB). The WAL
 * moves to a new segment before the checkpoint and the old one is removed rather than kept for
 * reuse, so the tarball holds one 16 MB segment, not two (bench/README.md "Twelfth pass").
 */
async function dumpPglite(database: Database): Promise<Buffer> {
  const client = (database.db as unknown as { $client: PGlite }).$client;
  await client.exec('set wal_recycle = off');
  await client.query('select pg_switch_wal()');
  await client.exec('checkpoint');
  return Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
}

/** What the template's content follows: every migration's name and text, and PGlite's version. */
function migrationsHash(): string {
  const h = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(resolve(root, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  h.update(`pglite ${pglite.version}\n${DUMP}\n`);
  for (const name of readdirSync(migrations).sort()) {
    if (name.endsWith('.sql')) h.update(`${name}\n${readFileSync(join(migrations, name), 'utf8')}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * The migrated PGlite data directory as a tarball, kept in node_modules/.cache between runs under
 * the hash of the migrations (a changed or added migration makes a new one). Written to a
 * temporary name and renamed, so a run started meanwhile never reads half a file.
 */
async function pgliteTemplate(): Promise<string> {
  const dir = resolve(root, '../../node_modules/.cache/portal-tests');
  const file = join(dir, `pglite-${migrationsHash()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const database = await openDatabase({});
  try {
    await migrate(database, migrations);
    const partial = `${file}.${process.pid}.part`;
    writeFileSync(partial, await dumpPglite(database));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

/** A migrated PostgreSQL database of this run's own (other runs may share the server), dropped after it. */
async function pgTemplate(url: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `portal_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: target.toString(), poolSize: 1 });
    await migrate(database, migrations);
  } finally {
    // A template must have no connection left when it is copied.
    await database?.close();
  }
  return {
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      // With the demo template made from this one under its name, whole or half-made.
      const made = await c.query<{ datname: string }>(
        'select datname from pg_database where starts_with(datname, $1)',
        [`${name}_`],
      );
      for (const { datname } of made.rows) await c.query(`drop database if exists ${datname} with (force)`);
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * How a test file asks for a portal of a template made here: the demo, with the settings that
 * template is made with, or the test settings alone (testing/harness.ts `createTestPortal`; a portal
 * with other settings or modules, or its own first start, makes its first start itself).
 */
const ASKS = {
  demo: /createTestPortal\(\{ DEMO_DATA: 'on' \}\)/,
  started: /createTestPortal\(\)/,
};
type Made = keyof typeof ASKS;

/** The settings each made template's first start runs with (testing/test-config.ts `testConfig`). */
const MADE_WITH: Record<Made, Record<string, string>> = { demo: { DEMO_DATA: 'on' }, started: {} };

/**
 * The made templates the run selected a file asking for, so that a run of other files does not pay
 * for them. Vitest hands a global set-up no list of the selected files: the command line's file
 * filters are read from the runner (no public field has them; without them every file counts),
 * without the `:line` that vitest takes off them as well.
 */
async function runAsksFor(project: TestProject): Promise<Set<Made>> {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters?.map((f) => f.replace(/:\d+$/, '')));
  const texts = testFiles.map((file) => readFileSync(file, 'utf8'));
  const made = Object.keys(ASKS) as Made[];
  return new Set(made.filter((m) => texts.some((text) => ASKS[m].test(text))));
}

/**
 * A first start on a database with the test settings and `env`. Imported when a template is made
 * here, so that a run without one does not load the server's modules into vitest's own process.
 */
async function startOnce(database: Database, env: Record<string, string>): Promise<void> {
  const { startOnce: start } = await import('../src/testing/test-config');
  await start(database, env);
}

/** PGlite: a copy of the migrated template after `made`'s first start, dumped to a tarball in `dir`. */
async function pgliteMadeTemplate(made: Made, migrated: string, dir: string): Promise<string> {
  const database = await openDatabase({ loadDataDir: new Blob([readFileSync(migrated)]) });
  try {
    await startOnce(database, MADE_WITH[made]);
    const file = join(dir, `pglite-${made}.tar`);
    writeFileSync(file, await dumpPglite(database));
    return file;
  } finally {
    await database.close();
  }
}

/** PostgreSQL: `<template>_<made>`, a copy of the migrated template after `made`'s first start. */
async function pgMadeTemplate(made: Made, url: string, template: string): Promise<string> {
  const name = `${template}_${made}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  // A template must have no connection left when it is copied.
  const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 4 });
  try {
    await startOnce(database, MADE_WITH[made]);
  } finally {
    await database.close();
  }
  return name;
}

/** A run's templates: the migrated one, and the first-started ones made on first demand. */
interface Templates {
  pgliteTemplate: string;
  pgTemplate: string;
  made(made: Made): Promise<string>;
  release(): Promise<void>;
}

async function makeTemplates(): Promise<Templates> {
  const url = process.env.TEST_DATABASE_URL;
  const made = new Map<Made, Promise<string>>();
  const once = (m: Made, make: () => Promise<string>): Promise<string> => {
    const p = made.get(m) ?? make();
    made.set(m, p);
    return p;
  };
  if (!url) {
    const migrated = await pgliteTemplate();
    const runDir = mkdtempSync(join(tmpdir(), 'portal-run-'));
    return {
      pgliteTemplate: migrated,
      pgTemplate: '',
      made: (m) => once(m, () => pgliteMadeTemplate(m, migrated, runDir)),
      release: async () => rmSync(runDir, { recursive: true, force: true }),
    };
  }
  const template = await pgTemplate(url);
  return {
    pgliteTemplate: '',
    pgTemplate: template.name,
    made: (m) => once(m, () => pgMadeTemplate(m, url, template.name)),
    release: template.drop,
  };
}

/**
 * The templates of this vitest process, shared by the projects it runs (`server` and
 * `server-chromium` each call this set-up): made once, released by the last project's teardown.
 */
const SHARED = Symbol.for('portal.test.templates');
type Shared = { [SHARED]?: { users: number; templates: Promise<Templates> } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildServer();
  const shared = globalThis as Shared;
  const entry = (shared[SHARED] ??= { users: 0, templates: makeTemplates() });
  entry.users++;
  const release = async (): Promise<void> => {
    if (--entry.users > 0) return;
    delete shared[SHARED];
    await (await entry.templates.catch(() => undefined))?.release();
  };
  try {
    const templates = await entry.templates;
    project.provide('pgliteTemplate', templates.pgliteTemplate);
    project.provide('pgTemplate', templates.pgTemplate);
    const asks = await runAsksFor(project);
    // One after the other: each is a portal's start in this process.
    project.provide('demoTemplate', asks.has('demo') ? await templates.made('demo') : '');
    project.provide('startedTemplate', asks.has('started') ? await templates.made('started') : '');
  } catch (err) {
    await release();
    throw err;
  }
  return release;
}
