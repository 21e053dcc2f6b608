import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDataDir } from '../../test/helpers/data-dir.ts';
import { openDb, type DbHandle } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { ASSETS_DIR, DEMO_CATALOGUE_FILE } from '../db/seed/demo.ts';
import { verifyPassword } from '../db/seed/passwords.ts';
import { runAddCustomer, runImportCatalogue, type CliDeps } from './commands.ts';

describe('command-line tools', () => {
  let handle: DbHandle;
  let dataDir: string;
  let out: string[];
  let err: string[];
  let deps: CliDeps;

  beforeAll(async () => {
    dataDir = await emptyDataDir('seed-cli-');
    handle = await openDb({ dataDir });
    deps = {
      dataDir,
      cwd: process.cwd(),
      // The test keeps its one database open; the commands' close is a no-op here.
      open: async () => ({ ...handle, close: async () => {} }),
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    };
  });
  afterAll(async () => {
    await handle?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const run = async (cmd: typeof runImportCatalogue, argv: string[]) => {
    out = [];
    err = [];
    return cmd(argv, deps);
  };

  it('add-customer creates hubs and refuses an existing login', async () => {
    expect(await run(runAddCustomer, ['--hub', 'new', '--hub-name', '演示门店客户', '--customer', '演示客户', '--login', 'demo', '--password', 'demo'])).toBe(0);
    expect(await run(runAddCustomer, ['--hub', 'new', '--hub-name', '分批收货客户', '--batch-address', '--login', 'partial', '--password', 'partial'])).toBe(0);
    expect(out.join()).toContain('客户中心 2（新建）');
    expect(await run(runAddCustomer, ['--hub', '1', '--login', 'demo2', '--password', 'another'])).toBe(0);
    expect(await run(runAddCustomer, ['--hub', '1', '--login', 'demo', '--password', 'xxxx'])).toBe(1);
    expect(err.join()).toContain('登录名已存在：demo');
    expect(await run(runAddCustomer, ['--hub', '99', '--login', 'x9', '--password', 'xxxx'])).toBe(1);
    expect(await run(runAddCustomer, ['--login', 'x9'])).toBe(2);
    expect(await run(runAddCustomer, ['--hub', '1', '--login', 'x9', '--password', 'pw12', '--bogus'])).toBe(2);

    const users = await handle.db.select().from(schema.users).orderBy(schema.users.id);
    expect(users.map((u) => [u.login, u.hubId])).toEqual([['demo', 1], ['partial', 2], ['demo2', 1]]);
    expect(users[2]!.customerId).toBe(users[0]!.customerId);
    expect(await verifyPassword('another', users[2]!.passwordHash)).toBe(true);
    const [hub2] = await handle.db.select().from(schema.customerHubs).where(eq(schema.customerHubs.id, 2));
    expect(hub2?.batchAddressParsing).toBe(true);
    const [c2] = await handle.db.select().from(schema.customers).where(eq(schema.customers.hubId, 2));
    expect(c2?.name).toBe('分批收货客户');
  });

  it('import-catalogue prints every problem of a bad file with its path and exits 1', async () => {
    const bad = JSON.parse(await readFile(DEMO_CATALOGUE_FILE, 'utf8')) as { products: Array<{ components: Array<Record<string, unknown>>; categoryKey: string }> };
    bad.products[0]!.components[0]!.width = 0;
    bad.products[1]!.categoryKey = 'nope';
    const file = path.join(dataDir, 'bad.json');
    await writeFile(file, JSON.stringify(bad));
    expect(await run(runImportCatalogue, [file, '--templates', path.join(ASSETS_DIR, 'templates')])).toBe(1);
    // Each line names the product it is in (the number the operator searches the file for).
    expect(err.some((l) => /^  products\[0\]\.components\[0\]\.width（产品 [^）]+）: 必须大于0$/.test(l))).toBe(true);
    expect(err.some((l) => /^  products\[1\]\.categoryKey（产品 [^）]+）: /.test(l))).toBe(true);
    expect((await handle.db.select({ n: count() }).from(schema.products))[0]?.n).toBe(0);
  });

  it('import-catalogue imports a good file and prints counts; a second run changes nothing', async () => {
    const args = [DEMO_CATALOGUE_FILE, '--templates', path.join(ASSETS_DIR, 'templates'), '--images', ASSETS_DIR];
    expect(await run(runImportCatalogue, args)).toBe(0);
    expect(out.find((l) => l.includes('SKU'))).toBe('  SKU: 34（新增 34，更新 0，删除或取消 0）');
    expect(await run(runImportCatalogue, args)).toBe(0);
    expect(out.find((l) => l.includes('SKU'))).toBe('  SKU: 34（新增 0，更新 0，删除或取消 0）');
  });

  it('import-catalogue names a missing template folder file', async () => {
    expect(await run(runImportCatalogue, [DEMO_CATALOGUE_FILE, '--templates', dataDir, '--images', ASSETS_DIR])).toBe(1);
    expect(err.filter((l) => /\.templateFile（产品 [^）]+）: 模板文件不存在: \//.test(l))).toHaveLength(10);
  });
});
