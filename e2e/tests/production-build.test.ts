/**
 * No test doors in production (#18.7): the hook the e2e tests and the bench use to fill the order table
 * (`window.__portalTest`, opened with `?portalTest`) exists only in the e2e build (apps/web/dist-e2e),
 * never in the build `npm start` serves (apps/web/dist). Both are made by `npm run build`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser.ts';
import { repoRoot, startServer, type RunningServer } from '../support/server.ts';
import { openWithTestHook } from '../support/works-bench.ts';

const MARKER = '__portalTest';

/** The built scripts of a web build that hold `text`. */
async function scriptsHolding(dist: string, text: string): Promise<string[]> {
  const dir = join(repoRoot, 'apps/web', dist, 'assets');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.js'));
  const holding: string[] = [];
  for (const name of names) if ((await readFile(join(dir, name), 'utf8')).includes(text)) holding.push(name);
  return holding;
}

describe('the production build has no test door', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ env: { WEB_DIST: join(repoRoot, 'apps/web/dist') } });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('no script of apps/web/dist holds the hook; the e2e build does', async () => {
    expect(await scriptsHolding('dist', MARKER)).toEqual([]);
    expect((await scriptsHolding('dist-e2e', MARKER)).length).toBeGreaterThan(0);
  });

  it('a customer who opens /batch-upload?portalTest on the production build gets no window.__portalTest', async () => {
    const { context, page } = await newPage(browser);
    try {
      expect(await openWithTestHook(page, server.url)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
