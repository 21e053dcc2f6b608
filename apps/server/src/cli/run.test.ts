import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyDataDir } from '../../test/helpers/data-dir.ts';
import { openDb } from '../db/client.ts';
import { operators } from '../db/schema/index.ts';
import { serverFile } from '../paths.ts';

const run = promisify(execFile);
const repoRoot = serverFile('../..');

describe('the commands as a shop runs them (npm run … from the repository)', () => {
  const made: string[] = [];
  afterEach(async () => {
    for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('take a relative DATA_DIR (./data by default) where npm start takes it: from the repository, not apps/server (the README walk: add-operator wrote to apps/server/data)', async () => {
    const dataDir = await emptyDataDir('cli-where-');
    const relative = path.relative(repoRoot, dataDir);
    // Where the command wrote before: npm runs a workspace's script in its folder.
    const astray = path.resolve(repoRoot, 'apps/server', relative);
    made.push(dataDir, astray);
    const { DATABASE_URL: _onPglite, ...env } = process.env;
    const { stdout } = await run('npm', ['run', '--silent', 'add-operator', '--', 'cli-where', 'cli-where-pw'], { cwd: repoRoot, env: { ...env, DATA_DIR: relative } });
    expect(stdout).toContain('cli-where');
    expect(existsSync(astray)).toBe(false);
    const handle = await openDb({ dataDir });
    try {
      expect(await handle.db.select({ login: operators.login }).from(operators).where(eq(operators.login, 'cli-where'))).toEqual([{ login: 'cli-where' }]);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
