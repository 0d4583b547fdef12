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
import { loadDemo } from '../src/testing/test-config';

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

/** What the template's content follows: every migration's name and text, and PGlite's version. */
function migrationsHash(): string {
  const h = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(resolve(root, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  h.update(`pglite ${pglite.version}\n`);
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
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    const partial = `${file}.${process.pid}.part`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
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

/** How a test file asks for the demo (testing/harness.ts `createTestPortal`). */
const ASKS_FOR_DEMO = /DEMO_DATA: 'on'/;

/**
 * Whether the run selected a file that asks for the demo, so that a run of other files does not
 * pay for it. Vitest hands a global set-up no list of the selected files: the command line's file
 * filters are read from the runner (no public field has them; without them every file counts).
 */
async function runAsksForDemo(project: TestProject): Promise<boolean> {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  return testFiles.some((file) => ASKS_FOR_DEMO.test(readFileSync(file, 'utf8')));
}

/** PGlite: the demo loaded into a copy of the migrated template, dumped to a tarball in `dir`. */
async function pgliteDemoTemplate(migrated: string, dir: string): Promise<string> {
  const database = await openDatabase({ loadDataDir: new Blob([readFileSync(migrated)]) });
  try {
    await loadDemo(database);
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    const file = join(dir, 'pglite-demo.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await database.close();
  }
}

/** PostgreSQL: `<template>_demo`, a copy of the migrated template with the demo loaded. */
async function pgDemoTemplate(url: string, template: string): Promise<string> {
  const name = `${template}_demo`;
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
    await loadDemo(database);
  } finally {
    await database.close();
  }
  return name;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildServer();
  const url = process.env.TEST_DATABASE_URL;
  const demo = await runAsksForDemo(project);
  if (!url) {
    const migrated = await pgliteTemplate();
    project.provide('pgliteTemplate', migrated);
    project.provide('pgTemplate', '');
    const runDir = mkdtempSync(join(tmpdir(), 'portal-run-'));
    const removeRunDir = async () => rmSync(runDir, { recursive: true, force: true });
    try {
      project.provide('demoTemplate', demo ? await pgliteDemoTemplate(migrated, runDir) : '');
    } catch (err) {
      await removeRunDir();
      throw err;
    }
    return removeRunDir;
  }
  const template = await pgTemplate(url);
  project.provide('pgliteTemplate', '');
  project.provide('pgTemplate', template.name);
  try {
    project.provide('demoTemplate', demo ? await pgDemoTemplate(url, template.name) : '');
  } catch (err) {
    await template.drop();
    throw err;
  }
  return template.drop;
}
