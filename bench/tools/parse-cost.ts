/**
 * What the server takes to parse batch-triage's 300 folders (parseOrderInfo4BatchUp per folder) at 1, 4 and 8 calls in
 * flight, each round after an upload of its own of the batch; against that, the page's parses (bench/tools/drop-timeline.ts).
 * DATABASE_URL: on PostgreSQL instead of PGlite. Run: node --import tsx tools/parse-cost.ts
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { makeBatch } from '../benchmarks/batch-triage.ts';
import { startBenchServer } from '../lib/server.ts';
import { toolContext } from '../lib/tool-context.ts';
import { uploadToServer } from '../lib/upload.ts';
import { parseWorks } from '../lib/works.ts';

const { ctx, cleanUp } = toolContext();
try {
  const root = await ctx.tmpDir('triage');
  const batch = await makeBatch(root, 300, 1000);
  const server = await startBenchServer(ctx, process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {});
  for (const n of [1, 4, 8, 4, 1, 8]) {
    const folderId = randomUUID();
    await uploadToServer(server, batch.files, folderId);
    const queue = batch.dirs.map((d) => `upload/${folderId}/${path.basename(d)}`);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, async () => { for (let p = queue.shift(); p; p = queue.shift()) await parseWorks(server, p); }));
    console.log(`${n} in flight: ${(performance.now() - t0).toFixed(0)} ms for 300 parses`);
  }
} finally {
  await cleanUp();
}
process.exit(0);
