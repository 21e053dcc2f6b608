/**
 * What the server takes to link batch-triage's 1,000 files from bytes the hub has (POST linkFiles in calls of 100,
 * as the page sends them) at 1 and 2 calls in flight; against that, the page's link phase (bench/tools/drop-timeline.ts).
 * DATABASE_URL: on PostgreSQL instead of PGlite. Run: node --import tsx tools/link-cost.ts
 */
import { createHash, randomUUID } from 'node:crypto';
import { makeBatch } from '../benchmarks/batch-triage.ts';
import { startBenchServer } from '../lib/server.ts';
import { toolContext } from '../lib/tool-context.ts';
import { uploadToServer } from '../lib/upload.ts';

const { ctx, cleanUp } = toolContext();
try {
  const batch = await makeBatch(await ctx.tmpDir('triage'), 300, 1000);
  const server = await startBenchServer(ctx, process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {});
  await uploadToServer(server, batch.files, randomUUID());
  const bodies = batch.files.map((f) => ({ filePath: f.relativePath, size: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex') }));
  await server.call('POST', '/api/files/knownHashes', { hashes: [...new Set(bodies.map((b) => b.sha256))] });
  for (const n of [1, 2, 1, 2]) {
    const folderId = randomUUID();
    const calls: Array<typeof bodies> = [];
    for (let i = 0; i < bodies.length; i += 100) calls.push(bodies.slice(i, i + 100));
    const times: number[] = [];
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, async () => {
      for (let c = calls.shift(); c; c = calls.shift()) {
        const t = performance.now();
        const r = await server.call<{ results: Array<{ linked: boolean }> }>('POST', '/api/files/linkFiles', { files: c.map((b) => ({ ...b, folderId })) });
        if (r.results.some((x) => !x.linked)) throw new Error('not linked');
        times.push(performance.now() - t);
      }
    }));
    console.log(`${n} in flight: ${(performance.now() - t0).toFixed(0)} ms for 1000 links; calls ${times.map((t) => t.toFixed(0)).join(' ')}`);
  }
} finally {
  await cleanUp();
}
process.exit(0);
