import { defineConfig } from 'vitest/config';

// One runner for the whole repo; each workspace is a project (see README "Tests").
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Builds dist/main.js once for the tests that start the real server process.
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'e2e',
          root: './apps/web',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['./e2e/global-setup.ts'],
          setupFiles: ['./e2e/on-failure.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // `expect.poll` waits for what a screen shows after a server call. Vitest's default of 1 s
          // raced the machine's load, not the product; 10 s is the stall bar of the browser soak
          // (bench/README.md): a screen slower than that fails the test as a stall.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
