import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The repo root, so the same config works from /work/main (`--config e2e/vitest.config.ts`)
// and from e2e/ (`npm test -w @portal/e2e`).
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: repoRoot,
  test: {
    root: repoRoot,
    include: ['e2e/tests/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file starts its own server (own DATA_DIR, free port) and browser; two files at a time, because a
    // file alone keeps 2 cores about 35 % busy waiting on its pages (docs/decisions.md "Tests").
    maxWorkers: 2,
    pool: 'forks',
  },
});
