/**
 * What POST /api/sales_order/quote takes for a batch of 300 checked works of one SKU (what /payment1 asks
 * before it shows its prices), a few times over. DATABASE_URL: on PostgreSQL instead of PGlite.
 * Run (in bench/): node --import tsx tools/quote-cost.ts
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { makeBatch } from '../benchmarks/batch-triage.ts';
import { startBenchServer } from '../lib/server.ts';
import { toolContext } from '../lib/tool-context.ts';
import { uploadToServer } from '../lib/upload.ts';
import { checkFile, findSku, parseWorks, type ParsedWork } from '../lib/works.ts';

const { ctx, cleanUp } = toolContext();
try {
  const root = await ctx.tmpDir('quote');
  const batch = await makeBatch(root, 300, 1000);
  const server = await startBenchServer(ctx, process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {});
  const folderId = randomUUID();
  await uploadToServer(server, batch.files, folderId);
  const works: ParsedWork[] = [];
  for (const d of batch.dirs) works.push(...(await parseWorks(server, `upload/${folderId}/${path.basename(d)}`)));
  const sku = await findSku(server, 'PH-5');
  for (const w of works) await checkFile(server, w, sku);
  const body = { works: works.map((w) => ({ uuid: w.uuid, articleName: path.basename(w.filePath), quantity: 2, productId: sku.productId, propertyConfigId: sku.propertyConfigId })) };
  const runs: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const answer = await server.call<{ message: { lines: unknown[]; totalAmount: number } }>('POST', '/api/sales_order/quote', body);
    runs.push(performance.now() - t0);
    if (answer.message.lines.length !== works.length) throw new Error('the quote lost works');
  }
  console.log(`quote of ${works.length} works: ${runs.map((ms) => ms.toFixed(0)).join(' ')} ms`);
  await server.stop();
} finally {
  await cleanUp();
}
process.exit(0);
