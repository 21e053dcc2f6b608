import { mkdtemp, rm, readdir, truncate, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { noiseImage } from '/work/main/bench/lib/images.ts';
import { tempDatabase } from '/work/main/bench/lib/postgres.ts';
import { startBenchServer } from '/work/main/bench/lib/server.ts';
import { uploadToServer, type BatchFile } from '/work/main/bench/lib/upload.ts';
import type { BenchContext } from '/work/main/bench/lib/types.ts';
const cleanups: Array<() => Promise<void> | void> = [];
const ctx: BenchContext = { quick: false, repoRoot: '/work/main', log: (m) => process.stderr.write(`${m}\n`),
  async tmpDir(prefix) { const d = await mkdtemp(path.join(os.tmpdir(), `rss-${prefix}-`)); cleanups.push(() => rm(d, { recursive: true, force: true })); return d; },
  defer: (fn) => void cleanups.push(fn) };
const bytes = await noiseImage({ width: 1650, height: 1100, format: 'jpeg', quality: 100, density: 300 });
const files: BatchFile[] = Array.from({ length: 200 }, (_, i) => ({ relativePath: `p${i}.jpg`, bytes }));
const env = process.env.PG ? { DATABASE_URL: (await tempDatabase(ctx))! } : {};
const server = await startBenchServer(ctx, env);
const st = async () => { const s = await readFile(`/proc/${server.pid}/status`, 'utf8'); const g = (f: string) => Math.round(Number(new RegExp(`^${f}:\\s+(\\d+)`, 'm').exec(s)![1]) / 1024); return `rss ${g('VmRSS')} hwm ${g('VmHWM')} anon ${g('RssAnon')} file ${g('RssFile')} threads ${/Threads:\s+(\d+)/.exec(s)![1]}`; };
console.log('idle', await st());
for (let b = 1; b <= Number(process.env.N ?? 12); b++) {
  const folder = randomUUID();
  await uploadToServer(server, files, folder);
  const mid = await st();
  await server.call('POST', '/api/files/knownHashes', { hashes: ['0'.repeat(64)] });
  console.log(b, 'after upload', mid, '| after hash', await st());
  const dir = path.join(server.dataDir, 'files');
  for (const hub of (await readdir(dir)).filter((n) => /^\d+$/.test(n))) {
    const up = path.join(dir, hub, 'upload', folder);
    const walk = async (d: string): Promise<string[]> => (await Promise.all((await readdir(d, { withFileTypes: true })).map((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))).flat();
    await Promise.all((await walk(up).catch(() => [])).map((f) => truncate(f, 0)));
  }
}
await server.stop();
for (const c of cleanups.reverse()) await c();
