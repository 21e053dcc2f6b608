/**
 * Where the server's memory goes while batches come: the 500 MB batch of upload-throughput sent N times (N=12) to
 * the real server (PostgreSQL with PG=1, else PGlite), its RSS, peak, anonymous and file-backed memory printed after
 * each upload and after its hashing. Not a benchmark with a goal: the record for bench/HISTORY.md. For the V8 heap,
 * run it with NODE_OPTIONS="--require <a script that logs process.memoryUsage() when argv[1] is the server>".
 * Run: PG=1 node --import tsx bench/tools/upload-memory.ts (ENTRY=apps/server/dist/<name>.mjs: another server build)
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import { noiseImage } from '../lib/images.ts';
import { tempDatabase } from '../lib/postgres.ts';
import { startBenchServer } from '../lib/server.ts';
import { toolContext } from '../lib/tool-context.ts';
import { uploadToServer, type BatchFile } from '../lib/upload.ts';

const { ctx, cleanUp } = toolContext();

const bytes = await noiseImage({ width: 1650, height: 1100, format: 'jpeg', quality: 100, density: 300 });
const files: BatchFile[] = Array.from({ length: 200 }, (_, i) => ({ relativePath: `p${i}.jpg`, bytes }));
const env: Record<string, string> = {};
if (process.env.PG) {
  const url = await tempDatabase(ctx);
  if (!url) throw new Error('no PostgreSQL answers (lib/postgres.ts)');
  env.DATABASE_URL = url;
}
const server = await startBenchServer(ctx, env, process.env.ENTRY);

async function memory(): Promise<string> {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
  const mb = (field: string) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024);
  return `RSS ${mb('VmRSS')} peak ${mb('VmHWM')} anon ${mb('RssAnon')} file ${mb('RssFile')} MB`;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return (await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(path.join(e.parentPath, e.name)) : [path.join(e.parentPath, e.name)])))).flat();
}

try {
  console.log('at rest', await memory());
  for (let batch = 1; batch <= Number(process.env.N ?? 12); batch++) {
    const folderId = randomUUID();
    await uploadToServer(server, files, folderId);
    const uploaded = await memory();
    await server.call('POST', '/api/files/knownHashes', { hashes: ['0'.repeat(64)] }); // waits for the batch's hashes
    console.log(`batch ${batch}: after the upload ${uploaded}; after its hashing ${await memory()}`);
    // Emptied, as upload-throughput does between rounds, so the disk does not fill.
    const root = path.join(server.dataDir, 'files');
    const hubs = (await readdir(root)).filter((name) => /^\d+$/.test(name));
    const written = (await Promise.all(hubs.map((hub) => filesUnder(path.join(root, hub, 'upload', folderId))))).flat();
    await Promise.all(written.map((f) => truncate(f, 0)));
  }
} finally {
  await server.stop();
  await cleanUp();
}
