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
    // Each file starts its own server and browser; one file at a time keeps the machine calm.
    fileParallelism: false,
    pool: 'forks',
  },
});
