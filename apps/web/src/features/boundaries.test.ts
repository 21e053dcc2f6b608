/**
 * Features meet through a door (style.md 14, issue #18 item 4): the lint rule portal/feature-doors
 * (scripts/lint/portal-rules.mjs, run by `npm run lint` over the whole tree in `npm test`) refuses an import of another
 * feature's insides. Here it is run on files made for the purpose, laid out as the app's are, to see that it refuses
 * what it must and lets the doors through.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../../..');
const FILES: Record<string, string> = {
  'features/upload/index.ts': "export { queue } from './lib/queue.ts';\n",
  'features/upload/lib/queue.ts': "import { api } from '../api/files.ts';\nexport const queue = api;\n",
  'features/upload/api/files.ts': 'export const api = 1;\n',
  'features/orders/lazy.ts': 'export default 1;\n',
  'features/orders/pages/List.tsx': 'export default 2;\n',
  'features/crop/Crop.tsx': [
    "import { queue } from '../upload/index.ts';",
    "import { api } from '../upload/api/files.ts';",
    "export { queue as q } from '../upload/lib/queue.ts';",
    "export const page = () => import('../orders/lazy.ts');",
    "export const inside = () => import('../orders/pages/List.tsx');",
    'export const all = [queue, api];',
  ].join('\n'),
  'app/routes.ts': "import lazyOrders from '../features/orders/lazy.ts';\nexport default lazyOrders;\n",
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doors-'));
  for (const [name, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dir, 'src', name)), { recursive: true });
    await writeFile(path.join(dir, 'src', name), text);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('portal/feature-doors', () => {
  it('refuses another feature\'s insides and a lazy page imported statically, and lets the doors and a feature\'s own folders through', async () => {
    const lint = promisify(execFile)(path.join(REPO, 'node_modules/.bin/oxlint'), ['-c', path.join(REPO, '.oxlintrc.json'), '--format', 'unix', path.join(dir, 'src')]);
    const output = await lint.then((r) => r.stdout, (err: { stdout?: string }) => err.stdout ?? '');
    const found = output.split('\n').filter((l) => l.includes('feature-doors')).map((l) => /:(\d+):\d+: (\S+) reaches into the feature "([^"]+)"/.exec(l)?.slice(1, 4).join(' '));
    expect(found.sort()).toEqual([
      '1 ../features/orders/lazy.ts orders',
      '2 ../upload/api/files.ts upload',
      '3 ../upload/lib/queue.ts upload',
      '5 ../orders/pages/List.tsx orders',
    ]);
  });
});
