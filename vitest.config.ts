import { defineConfig } from 'vitest/config';

/**
 * Files that must have the machine to themselves: the drills (one restarts PostgreSQL, which every other
 * file's database lives in; others kill servers, fill a tmpfs or hold hundreds of sockets) and the previews'
 * fairness test, which counts what a flood lets through. They run one at a time after the rest.
 */
const ALONE = ['apps/server/test/drills/**/*.test.ts', 'apps/server/test/api/previews-fairness.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit-api',
          include: ['packages/*/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: ALONE,
          // Every file has its own database, DATA_DIR and port; two at a time on 2 cores (Vitest's default
          // there is one). docs/decisions.md "Tests": the measured wall times.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
