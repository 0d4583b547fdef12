import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { databaseTestFiles } from './apps/server/test/database-files.ts';
import { webSharedFiles } from './apps/web/test-files.ts';

/** Server test files that drive a real Chromium (PDFs): their own project, `server-chromium`. */
const CHROMIUM_FILES = 'src/**/*.chromium.test.ts';

/** How the server's test files run, in `server` and in `server-chromium`. */
const SERVER_TESTS = {
  // Builds dist/main.js once for the tests that start the real server process.
  globalSetup: ['./test/global-setup.ts'],
  setupFiles: ['./test/database-use.ts'],
  // A worker runs its files in one module graph: the server's modules are imported once per
  // worker instead of once per file (≈ 2.6 s of CPU a file; bench/README.md "Fifth pass").
  // What a file leaves in a module's state must be taken back where it is made (a portal's
  // close, a test's onTestFinished); a leak shows as a file failing after another one.
  isolate: false,
  // The stall bar of one test. CI runs these files under `nice` beside the browser lane
  // (scripts/test.sh), where a test takes 3–5 × its time alone: scenarios of 7–10 s alone
  // (a write-off's approvals and two day-ends, kept.test) reached 30 s there. A hang still
  // fails at 60 s; the longest scenarios carry their own limit.
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

// One runner for the whole repo; each workspace is a project (see README "Tests").
export default defineConfig({
  test: {
    // A worker per core. Vitest's default keeps one core for its own process, which on CI's two
    // cores runs every file one after another; the main process's share is small (README "Tests").
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          // Pure functions and constants: a worker runs its files in one module graph instead of
          // importing them afresh per file (half the project's CPU, bench/README.md "CI time").
          // The web files that mock a module stay isolated (`web` below; `web-shared` holds the rest).
          isolate: false,
          // A stall bar for the niced lane: the property tests are CPU-bound, and on CI they share two
          // cores with the browser lane under `nice` (scripts/test.sh), where a 5 s default is a
          // few runs' worth of the machine's load, not a stall.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          // CI's PostgreSQL phase sets TEST_DATABASE_FILES_ONLY: the files that open a database
          // (test/database-files.ts; test/database-use.ts fails a file that opens one unselected).
          include: process.env.TEST_DATABASE_FILES_ONLY
            ? databaseTestFiles()
            : ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The files that drive a real Chromium are `server-chromium`'s (below).
          exclude: [...configDefaults.exclude, CHROMIUM_FILES],
          ...SERVER_TESTS,
        },
      },
      {
        test: {
          // The server's tests that render PDFs through a real Chromium (`*.chromium.test.ts`).
          // `npm test` runs them beside the browser lane, not under the unit lane's `nice`
          // (scripts/test.sh). Chromium itself runs in a scheduling group of its own (Playwright
          // starts it in a new session), but the worker that drives it (Playwright's client, the
          // server's render) would wait at nice 10 behind the browser lane's server and runner,
          // with a launch (30 s) and a render (45 s) bounded by the product's own limits.
          name: 'server-chromium',
          root: './apps/server',
          include: [CHROMIUM_FILES],
          ...SERVER_TESTS,
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          // The files that replace modules or globals, each in a fresh worker: `vi.mock` of a module
          // an earlier file of the worker loaded does not take (Vitest's limit of `isolate: false`).
          exclude: webSharedFiles(),
          environment: 'jsdom',
          // What antd needs from a browser that jsdom lacks, and closing its static roots.
          setupFiles: ['./src/test/jsdom.ts'],
        },
      },
      {
        test: {
          name: 'web-shared',
          root: './apps/web',
          // The files that mock nothing share their workers' modules, as the server's do (≈ 1.6 s of
          // CPU a file; bench/README.md "Seventh pass"). What a file leaves in a module's state must
          // be taken back where it is made; a leak shows as a file failing after another one.
          include: webSharedFiles(),
          isolate: false,
          environment: 'jsdom',
          setupFiles: ['./src/test/jsdom.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          root: './apps/web',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['./e2e/global-setup.ts'],
          setupFiles: ['./e2e/on-failure.ts'],
          // A worker runs its files in one module graph: playwright-core and the helpers are
          // imported once per worker, not once per file (≈ 1.2 s of wall, 0.85 s of CPU a file;
          // bench/README.md "Fourteenth pass"). Each file launches and closes its own browser; the
          // setup file is run again for each file (its hooks), and helpers.ts's failure records
          // are emptied per test and per closed page.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One file at a time by default: two at a time (E2E_WORKERS=2, each file against its
          // worker's own server, e2e/global-setup.ts) is not yet measured on an idle 2-core runner,
          // and under load it pushed flows past their limits (bench/README.md "CI time"). Against
          // a server given by E2E_BASE_URL they always run one at a time.
          maxWorkers: Number(process.env.E2E_WORKERS || 1),
          fileParallelism: !process.env.E2E_BASE_URL,
          // A file's tests marked concurrent (fit.e2e.ts's walks of every list) run two at a time,
          // each in a browser context of its own: a walk waits on a screen at a time, and two of them
          // keep about as much of a core busy as one walk did with a load of the app per screen
          // (bench/README.md "Fourteenth pass"). The other files' tests run one after another.
          maxConcurrency: 2,
          // `expect.poll` waits for what a screen shows after a server call. Vitest's default of 1 s
          // raced the machine's load, not the product; 10 s is the stall bar of the browser soak
          // (bench/README.md): a screen slower than that fails the test as a stall.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
